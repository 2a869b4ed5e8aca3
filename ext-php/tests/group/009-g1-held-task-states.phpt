--TEST--
Rule G1/C10: a task held back by the limit is created, not queued; it starts when a slot frees
--FILE--
<?php
$g = new Async\TaskGroup(1);
$first = $g->spawn(fn() => Async\delay(5));
$held = $g->spawn(fn() => "held task ran");
var_dump($first->isQueued(), $held->isQueued(), $held->isStarted());
Async\await($first);
echo Async\await($held), "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
held task ran
