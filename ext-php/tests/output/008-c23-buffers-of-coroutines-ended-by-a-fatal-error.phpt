--TEST--
A fatal error message in a coroutine's buffer is shown, and the buffers of the coroutines it ends are flushed, not lost
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
$waiting = Async\spawn(function () {
    ob_start();
    echo "the waiting coroutine's buffered text\n";
    Async\delay(5000);
    echo "never\n";
});
$failing = Async\spawn(function () {
    Async\delay(5);
    ob_start();
    echo "the failing coroutine's buffered text\n";
    trigger_error("boom", E_USER_ERROR);
});
Async\await($failing);
echo "main never continues\n";
?>
--EXPECTF--
the failing coroutine's buffered text

Fatal error: boom in %s on line 13
the waiting coroutine's buffered text
shutdown ran
