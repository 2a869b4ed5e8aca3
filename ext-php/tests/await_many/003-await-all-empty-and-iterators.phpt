--TEST--
await_all() accepts empty input and any iterable, keeping keys
--FILE--
<?php
var_dump(Async\await_all([]));
function gen() { yield 'x' => Async\spawn(fn() => 'X'); yield 10 => Async\spawn(fn() => 'ten'); }
var_dump(Async\await_all(gen())[0]);
var_dump(Async\await_all(new ArrayIterator([Async\spawn(fn() => 'it')]))[0]);
?>
--EXPECT--
array(2) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
}
array(2) {
  ["x"]=>
  string(1) "X"
  [10]=>
  string(3) "ten"
}
array(1) {
  [0]=>
  string(2) "it"
}
