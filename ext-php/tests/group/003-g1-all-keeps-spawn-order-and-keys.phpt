--TEST--
Rule G1: all() completes with key => result in spawn order; integer keys continue after the largest used
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(20); return 'a'; });          // 0
$g->spawnWithKey('name', function () { Async\delay(5); return 'b'; });
$g->spawnWithKey(10, fn() => 'c');
$g->spawn(fn() => 'd');                                             // 11
var_dump(Async\await($g->all()));
?>
--EXPECT--
array(4) {
  [0]=>
  string(1) "a"
  ["name"]=>
  string(1) "b"
  [10]=>
  string(1) "c"
  [11]=>
  string(1) "d"
}
