--TEST--
Rule C9 (seed 001): catch (\Exception) does not catch a cancellation; finally runs
--DESCRIPTION--
Seed 001 shows only "The end" for this example. A cancellation that reaches
the main flow unhandled is an uncaught \Error there, which PHP reports as a
fatal error after the finally block ran (DESIGN.md C9, C15). The seed awaits
spawn(sleep(...), 1); blocking sleep() is not asynchronous yet (C18), so the
coroutine waits with Async\delay().
--FILE--
<?php
use function Async\spawn;
use function Async\await;

try {
    $coroutine = spawn(function() {
        await(spawn(Async\delay(...), 50));
        throw new \Exception("Task 1");
    });

    spawn(function() use ($coroutine) {
        $coroutine->cancel();
    });

    try {
        await($coroutine);
    } catch (\Exception $exception) {
        // recommended way to handle exceptions
        echo "Caught exception: {$exception->getMessage()}\n";
    }
} finally {
    echo "The end\n";
}
?>
--EXPECTF--
The end

Fatal error: Uncaught Async\CancellationError: cancelled at %s:%d
Stack trace:
#0 %s(%d): Async\Coroutine->cancel()
#1 [internal function]: {closure}()
#2 {main}
  thrown in %s on line %d
