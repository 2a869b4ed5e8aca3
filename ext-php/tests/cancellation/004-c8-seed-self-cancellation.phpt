--TEST--
Rule C8 (seed 001): a coroutine that cancels itself keeps running, then await() throws
--FILE--
<?php
use function Async\spawn;

$coroutine = spawn(function() use (&$coroutine) {
    $coroutine->cancel(new \Async\CancellationError("Self-cancelled"));
    echo "This still executes\n"; // Will execute
    return "completed";
});

// await() will throw CancellationError despite normal completion
try {
    Async\await($coroutine);
} catch (Async\CancellationError $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($coroutine->isCancelled(), $coroutine->getResult());
?>
--EXPECT--
This still executes
await: Self-cancelled
bool(true)
NULL
