--TEST--
Rule G1/C11: finally() and onFinally() handlers get the TaskGroup once it is closed and complete, each in its own coroutine, before awaitCompletion() returns; on a completed group at once
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(5); echo "task done\n"; });
$g->finally(function (Async\TaskGroup $group) use ($g) {
    echo "finally: same group ", var_export($group === $g, true), ", closed ", var_export($group->isClosed(), true), "\n";
});
$g->onFinally(function () { echo "onFinally\n"; });
Async\delay(20);
echo "tasks done, the group is still open\n";
$g->close();
$g->awaitCompletion();
echo "awaitCompletion returned\n";
$g->finally(function () { echo "registered on a completed group\n"; });
Async\suspend();
try {
    $g->finally('strlen');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
task done
tasks done, the group is still open
finally: same group true, closed true
onFinally
awaitCompletion returned
registered on a completed group
Async\TaskGroup::finally(): Argument #1 ($callback) must be of type Closure, string given
