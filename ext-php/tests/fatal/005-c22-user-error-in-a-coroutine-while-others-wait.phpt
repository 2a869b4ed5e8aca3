--TEST--
E_USER_ERROR in a coroutine ends the request: no coroutine runs on or starts, no finally block or onFinally handler runs, shutdown functions once
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
$waiter = Async\spawn(function () {
    try { Async\delay(5000); echo "waiter continued\n"; } finally { echo "waiter finally\n"; }
});
$waiter->onFinally(fn() => print("waiter onFinally ran\n"));
$failing = Async\spawn(function () {
    Async\delay(5);
    Async\spawn(fn() => print("queued coroutine started\n"));
    trigger_error("boom", E_USER_ERROR);
    echo "after the error\n";
});
$failing->onFinally(fn() => print("failing onFinally ran\n"));
try {
    Async\await($failing);
} finally {
    echo "main finally\n";
}
echo "main continued after fatal\n";
?>
--EXPECTF--
Fatal error: boom in %s on line 10
shutdown ran
