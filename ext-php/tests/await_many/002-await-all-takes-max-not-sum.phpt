--TEST--
await_all() over concurrent delays takes about the longest, not the sum
--FILE--
<?php
$t = hrtime(true);
[$results] = Async\await_all(array_map(fn($ms) => Async\spawn(function () use ($ms) { Async\delay($ms); return $ms; }), [60, 40, 50]));
$elapsed = (hrtime(true) - $t) / 1e6;
var_dump($results);
echo $elapsed < 140 ? "concurrent\n" : "sequential: $elapsed ms\n";
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
concurrent
