--TEST--
Rule C9 (seed 001): catch (\Exception) does not catch a cancellation; finally runs
--DESCRIPTION--
Seed 001 shows only "The end" for this example: the cancellation that
reaches the top of the main flow ends it as cancelled (C7 applies to the
main coroutine, C3), it is not reported as uncaught. The seed awaits
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
--EXPECT--
The end
