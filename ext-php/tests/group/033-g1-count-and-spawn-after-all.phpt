--TEST--
Rule G1: count() counts the tasks spawned; a task spawned after all() completed does not change that Future, a new all() waits for it
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(fn() => 1);
$first = $g->all();
var_dump(Async\await($first), count($g));
$g->spawn(function () { Async\delay(5); return 2; });
var_dump(count($g), Async\await($first), Async\await($g->all()));
?>
--EXPECT--
array(1) {
  [0]=>
  int(1)
}
int(1)
int(2)
array(1) {
  [0]=>
  int(1)
}
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
