--TEST--
Rule C13 with C15: exit() inside a Fiber inside a coroutine unwinds that fiber and coroutine and starts graceful shutdown, which cancels a coroutine waiting inside another fiber
--FILE--
<?php
use function Async\{spawn, delay};

spawn(function () {
    $f = new Fiber(function () {
        try { delay(1000); echo "not reached\n"; }
        catch (Async\CancellationError $e) { echo "the other fiber is cancelled\n"; throw $e; }
    });
    $f->start();
});
spawn(function () {
    $f = new Fiber(function () {
        delay(5);
        echo "exiting\n";
        exit(3);
    });
    $f->start();
    echo "not reached after the fiber\n";
});
delay(10000);
echo "not reached in main\n";
?>
--EXPECT--
exiting
the other fiber is cancelled
