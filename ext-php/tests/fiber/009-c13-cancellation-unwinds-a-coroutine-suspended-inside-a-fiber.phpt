--TEST--
Rule C13: cancelling a coroutine suspended inside a Fiber unwinds it: the fiber's finally blocks run, the fiber ends with the CancellationError, the coroutine ends cancelled
--FILE--
<?php
use function Async\{spawn, await, delay};

$fiber = null;
$co = spawn(function () use (&$fiber) {
    $fiber = new Fiber(function () {
        try {
            try {
                delay(10000);
            } finally {
                echo "inner finally in the fiber\n";
            }
        } finally {
            echo "outer finally in the fiber\n";
        }
        echo "not reached\n";
    });
    try {
        $fiber->start();
    } catch (Async\CancellationError $e) {
        echo "start() threw ", get_class($e), "\n";
        throw $e;
    } finally {
        echo "coroutine finally\n";
    }
});
delay(5);
$co->cancel();
try {
    await($co);
} catch (Async\CancellationError $e) {
    echo "await: ", get_class($e), "\n";
}
var_dump($co->isCancelled(), $fiber->isTerminated(), $fiber->isRunning());
?>
--EXPECT--
inner finally in the fiber
outer finally in the fiber
start() threw Async\CancellationError
coroutine finally
await: Async\CancellationError
bool(true)
bool(true)
bool(false)
