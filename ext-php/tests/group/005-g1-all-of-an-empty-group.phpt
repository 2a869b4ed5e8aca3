--TEST--
Rule G1: all() of an empty group completes at once with an empty array; race() waits for a task
--FILE--
<?php
$g = new Async\TaskGroup();
$all = $g->all();
var_dump($all->isCompleted(), Async\await($all));
$race = $g->race();
var_dump($race->isCompleted());
$g->spawn(fn() => "late task");
var_dump(Async\await($race));
?>
--EXPECT--
bool(true)
array(0) {
}
bool(false)
string(9) "late task"
