--TEST--
Rule C5: when await() is cancelled, the awaited coroutine goes on
--FILE--
<?php
$task = Async\spawn(function () { Async\delay(40); echo "task finished\n"; return 7; });
try {
    Async\await($task, Async\timeout(5));
} catch (Async\AwaitCancelledException $e) {
    echo "await cancelled\n";
    var_dump($e instanceof Async\CancellationError, $e instanceof Async\OperationCanceledException);
}
var_dump($task->isCancelled());
echo Async\await($task), "\n";
?>
--EXPECT--
await cancelled
bool(true)
bool(true)
bool(false)
task finished
7
