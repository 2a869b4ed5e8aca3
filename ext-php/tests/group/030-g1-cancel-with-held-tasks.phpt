--TEST--
Rule G1/C7: cancelling a group with tasks held back by its limit: they never start
--FILE--
<?php
$g = new Async\TaskGroup(1);
$g->spawn(function () { try { Async\delay(60000); } catch (Async\CancellationError) { echo "running task cancelled\n"; } });
$held = $g->spawn(function () { echo "held task must not start\n"; });
Async\suspend();
$g->cancel();
foreach ($g as $k => [$r, $e]) echo "$k: ", $e ? get_class($e) : "ok", "\n";
var_dump($held->isStarted(), $held->isCancelled());
?>
--EXPECT--
1: Async\CancellationError
running task cancelled
0: Async\CancellationError
bool(false)
bool(true)
