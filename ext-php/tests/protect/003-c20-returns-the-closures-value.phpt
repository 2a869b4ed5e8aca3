--TEST--
Rule C20: without a cancellation, protect() returns what the closure returns; it takes a Closure only
--FILE--
<?php
var_dump(Async\protect(fn() => 42));
var_dump(Async\protect(function () { Async\suspend(); return [1, 2]; }));
try {
    Async\protect('strlen');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
int(42)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
Async\protect(): Argument #1 ($closure) must be of type Closure, string given
