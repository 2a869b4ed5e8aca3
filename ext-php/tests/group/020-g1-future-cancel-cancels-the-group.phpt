--TEST--
Rule G1/C7: cancelling a group's Future cancels the group's tasks; the Future then completes with the CancellationError
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { try { Async\delay(60000); } catch (Async\CancellationError $e) { echo "task: ", $e->getMessage(), "\n"; throw $e; } });
$all = $g->all();
Async\suspend();
$all->cancel(new Async\CancellationError("not needed any more"));
try {
    Async\await($all);
} catch (Async\CancellationError $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($all->isCancelled());
$all->cancel();
echo "cancelling a completed Future does nothing\n";
?>
--EXPECT--
task: not needed any more
await: not needed any more
bool(true)
cancelling a completed Future does nothing
