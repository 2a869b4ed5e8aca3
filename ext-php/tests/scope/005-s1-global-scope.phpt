--TEST--
Rule S1: Scope::global() is the global scope: one object for it, the main flow's scope, never disposed by dropping it
--FILE--
<?php
$g = Async\Scope::global();
var_dump($g === Async\Scope::global());
var_dump(Async\currentCoroutine()->getScope() === $g);
unset($g);
$c = Async\spawn(fn() => Async\currentCoroutine()->getScope() === Async\Scope::global());
var_dump(Async\await($c));
var_dump(Async\Scope::global()->isClosed(), Async\Scope::global()->isCancelled());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
