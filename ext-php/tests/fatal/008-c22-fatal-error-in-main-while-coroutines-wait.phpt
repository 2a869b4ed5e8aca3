--TEST--
A fatal error in the main flow while coroutines wait: none runs on (no finally block), shutdown functions run once and may use async code
--FILE--
<?php
register_shutdown_function(function () {
    echo "shutdown ran\n";
    echo Async\await(Async\spawn(fn() => "a coroutine of the shutdown function runs")), "\n";
});
Async\spawn(function () {
    try { Async\delay(5000); echo "waiter continued\n"; } finally { echo "waiter finally\n"; }
});
$long = Async\spawn(fn() => Async\delay(5000));
Async\spawn(function () use ($long) {
    try { Async\await($long); echo "awaiter continued\n"; } finally { echo "awaiter finally\n"; }
});
Async\delay(5);
trigger_error("main fails", E_USER_ERROR);
echo "main continued after fatal\n";
?>
--EXPECTF--
Fatal error: main fails in %s on line 14
shutdown ran
a coroutine of the shutdown function runs
