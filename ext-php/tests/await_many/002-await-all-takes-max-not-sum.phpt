--TEST--
await_all() over concurrent delays keeps the input order of the results
--FILE--
<?php
[$results] = Async\await_all(array_map(fn($ms) => Async\spawn(function () use ($ms) { Async\delay($ms); return $ms; }), [60, 40, 50]));
var_dump($results);
?>
--EXPECT--
array(3) {
  [0]=>
  int(60)
  [1]=>
  int(40)
  [2]=>
  int(50)
}
