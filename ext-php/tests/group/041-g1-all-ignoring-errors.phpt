--TEST--
Rule G1: all(ignoreErrors: true) completes with the results of the tasks that succeeded; the errors stay readable
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawnWithKey('a', function () { Async\delay(5); return 1; });
$g->spawnWithKey('b', function () { throw new LogicException("b failed"); });
$g->spawnWithKey('c', fn() => 3);
var_dump(Async\await($g->all(ignoreErrors: true)));
try {
    Async\await($g->all());
} catch (LogicException $e) {
    echo "all(): ", $e->getMessage(), "\n";
}
echo implode(", ", array_keys($g->getErrors())), "\n";
?>
--EXPECT--
array(2) {
  ["a"]=>
  int(1)
  ["c"]=>
  int(3)
}
all(): b failed
b
