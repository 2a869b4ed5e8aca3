--TEST--
Rule C9 (seed 001): catching CancellationError explicitly, then rethrowing
--DESCRIPTION--
Seed 001 shows "Caught CancellationError / The end": the rethrown
cancellation ends the main flow as cancelled, quietly (C3, C7). sleep()
replaced by Async\delay() (C18).
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
    } catch (Async\CancellationError $exception) {
        // not recommended way to handle exceptions
        echo "Caught CancellationError\n";
        throw $exception;
    }
} finally {
    echo "The end\n";
}
?>
--EXPECT--
Caught CancellationError
The end
