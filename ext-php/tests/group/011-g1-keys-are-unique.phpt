--TEST--
Rule G1: a key already used throws AsyncException with the core's message; integer and string keys are distinct
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawnWithKey('a', fn() => 1);
$g->spawnWithKey(1, fn() => 2);
$g->spawn(fn() => 3);        // takes the next integer key: 2
foreach (['a', 1, 2] as $key) {
    try {
        $g->spawnWithKey($key, fn() => 4);
    } catch (Async\AsyncException $e) {
        echo $e->getMessage(), "\n";
    }
}
$g->spawnWithKey('1x', fn() => 5);
var_dump(count($g), array_keys(Async\await($g->all())));
?>
--EXPECT--
A task with the key "a" already exists
A task with the key 1 already exists
A task with the key 2 already exists
int(4)
array(4) {
  [0]=>
  string(1) "a"
  [1]=>
  int(1)
  [2]=>
  int(2)
  [3]=>
  string(2) "1x"
}
