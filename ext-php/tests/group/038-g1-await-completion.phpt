--TEST--
Rule G1: awaitCompletion() waits, on a closed group, for every task and what they spawned into the group, never throws a task's error, and refuses an open group and a caller inside the group
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () {
    Async\spawn(function () { Async\delay(20); echo "coroutine spawned by a task done\n"; });
    throw new RuntimeException("task failure");
});
$g->spawn(function () use ($g) {
    try {
        $g->awaitCompletion();
    } catch (Async\AsyncException $e) {
        echo "from a task: ", $e->getMessage(), "\n";
    }
});
try {
    $g->awaitCompletion();
} catch (Async\AsyncException $e) {
    echo "open: ", $e->getMessage(), "\n";
}
$g->close();
$g->awaitCompletion();
echo "awaitCompletion returned\n";
echo count($g->getErrors()), " error kept by the group\n";
$h = new Async\TaskGroup();
$h->spawn(fn() => Async\delay(200));
$h->close();
try {
    $h->awaitCompletion(Async\timeout(5));
} catch (Async\AwaitCancelledException) {
    echo "cancelled by its timeout\n";
}
$h->cancel();
?>
--EXPECT--
open: The task group must be closed before awaiting its completion
from a task: Awaiting the completion of a task group from within it would cause a deadlock
coroutine spawned by a task done
awaitCompletion returned
1 error kept by the group
cancelled by its timeout
