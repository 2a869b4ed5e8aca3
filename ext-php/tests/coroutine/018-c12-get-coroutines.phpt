--TEST--
Rule C12: getCoroutines() (alias get_coroutines) lists every unfinished coroutine, the main one first
--DESCRIPTION--
docs/rules.md says "all coroutines": the main flow is a coroutine (C3), so it is
listed, first; then the spawned ones in spawn order.
--FILE--
<?php
$main = Async\currentCoroutine();
var_dump(Async\getCoroutines() === [$main]);
$a = Async\spawn(fn() => Async\suspend());
$b = Async\spawn(fn() => 1);
$list = Async\getCoroutines();
var_dump(count($list), $list[0] === $main, $list[1] === $a, $list[2] === $b);
Async\suspend();
$list = Async\get_coroutines();
var_dump(count($list), $list[1] === $a);
Async\await($a);
var_dump(Async\getCoroutines() === [$main]);
?>
--EXPECT--
bool(true)
int(3)
bool(true)
bool(true)
bool(true)
int(2)
bool(true)
bool(true)
