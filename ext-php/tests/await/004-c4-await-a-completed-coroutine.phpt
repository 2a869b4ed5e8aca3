--TEST--
Rule C4: awaiting a completed coroutine returns its result at once, every time
--FILE--
<?php
$c = Async\spawn(fn() => new ArrayObject(['x' => 1]));
$r1 = Async\await($c);
$r2 = Async\await($c);
var_dump($r1 === $r2, $r1['x']);
?>
--EXPECT--
bool(true)
int(1)
