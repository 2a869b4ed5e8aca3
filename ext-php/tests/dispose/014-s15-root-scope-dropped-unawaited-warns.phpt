--TEST--
Rule S15: a root scope destroyed with coroutines nobody awaited or disposed warns (then disposes safely)
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(fn() => Async\delay(5));
$scope->spawn(fn() => Async\delay(5));
Async\suspend();
unset($scope);
?>
--EXPECTF--
Warning: Scope created at %s:2 was destroyed with 2 active coroutine(s) that were never awaited or disposed in %s on line 6

Warning: Coroutine is zombie at %s:3 in Scope disposed at %s:6 in %s on line 6

Warning: Coroutine is zombie at %s:4 in Scope disposed at %s:6 in %s on line 6
