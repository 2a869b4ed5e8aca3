--TEST--
Rule C15: the coroutine that calls exit() ends cancelled; awaiting it during the shutdown throws its cancellation
--FILE--
<?php
$exiting = Async\spawn(function () { Async\suspend(); exit(); });
Async\spawn(function () use ($exiting) {
    try {
        Async\delay(60000);
    } finally {
        var_dump($exiting->isCompleted(), $exiting->isCancelled());
        try {
            Async\await($exiting);
        } catch (Async\CancellationError $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
});
?>
--EXPECT--
bool(true)
bool(true)
Async\CancellationError: Graceful shutdown: exit() was called
