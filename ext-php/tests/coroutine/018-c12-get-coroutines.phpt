--TEST--
Rule C12: getCoroutines() (alias get_coroutines) lists the unfinished spawned coroutines
--FILE--
<?php
var_dump(Async\getCoroutines());
$a = Async\spawn(fn() => Async\suspend());
$b = Async\spawn(fn() => 1);
$list = Async\getCoroutines();
var_dump(count($list), $list[0] === $a, $list[1] === $b);
Async\suspend();
$list = Async\get_coroutines();
var_dump(count($list), $list[0] === $a);
Async\await($a);
var_dump(Async\getCoroutines());
?>
--EXPECT--
array(0) {
}
int(2)
bool(true)
bool(true)
int(1)
bool(true)
array(0) {
}
