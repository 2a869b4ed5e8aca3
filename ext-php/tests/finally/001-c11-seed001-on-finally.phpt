--TEST--
Rule C11 (seed 001, "onFinally"): the callback receives the completed coroutine
--DESCRIPTION--
The seed's task throws and nobody awaits it: by S10 that exception reaches
the global scope unhandled and is reported at the end (the seed shows only
the callback's line).
--FILE--
<?php
use function Async\spawn;
use Async\Coroutine;

function task(): void
{
    throw new Exception("Task 1");
}

$coroutine = spawn('task');

$coroutine->onFinally(function (Coroutine $completedCoroutine) use ($coroutine) {
    echo "Coroutine " . spl_object_id($completedCoroutine) . " completed\n";
    var_dump($completedCoroutine === $coroutine, $completedCoroutine->isCompleted());
});
?>
--EXPECTF--
Coroutine %d completed
bool(true)
bool(true)

Fatal error: Uncaught Exception: Task 1 in %s:7
Stack trace:
#0 [internal function]: task()
#1 {main}
  thrown in %s on line 7
