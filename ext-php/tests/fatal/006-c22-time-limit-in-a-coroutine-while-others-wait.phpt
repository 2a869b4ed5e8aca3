--TEST--
max_execution_time exceeded in a coroutine's busy loop while other coroutines wait ends the request as in plain PHP
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
$waiter = Async\spawn(function () {
    try { Async\delay(30000); echo "waiter continued\n"; } finally { echo "waiter finally\n"; }
});
$busy = Async\spawn(function () {
    set_time_limit(1);
    try {
        while (true) {
        }
    } finally {
        echo "busy finally\n";
    }
});
Async\await($busy);
echo "main continued after fatal\n";
?>
--EXPECTF--
Fatal error: Maximum execution time of 1 second exceeded in %s on line %d
shutdown ran
