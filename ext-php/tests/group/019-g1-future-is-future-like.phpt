--TEST--
Rule G1/C4: the awaitables of a group are Async\Future objects (FutureLike), awaited any number of times, by any number of coroutines
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(5); return 42; });
$all = $g->all();
var_dump($all instanceof Async\FutureLike, $all instanceof Async\Future, $all->isCompleted());
$waiters = [];
for ($i = 0; $i < 3; $i++) {
    $waiters[] = Async\spawn(fn() => Async\await($all));
}
foreach ($waiters as $w) var_dump(Async\await($w));
var_dump(Async\await($all), $all->isCompleted(), $all->isCancelled());
try {
    new Async\Future();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
array(1) {
  [0]=>
  int(42)
}
array(1) {
  [0]=>
  int(42)
}
array(1) {
  [0]=>
  int(42)
}
array(1) {
  [0]=>
  int(42)
}
bool(true)
bool(false)
Async\Future::__construct() expects exactly 1 argument, 0 given
