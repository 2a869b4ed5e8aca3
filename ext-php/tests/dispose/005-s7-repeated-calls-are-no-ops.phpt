--TEST--
Rule S7: dispose*() may be called again, in any order: no-ops, no new warnings
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(fn() => Async\delay(30));
Async\suspend();
$scope->disposeSafely();
$scope->disposeSafely();
$scope->dispose();
$scope->disposeAfterTimeout(10);
echo "no more warnings\n";
$scope->cancel();
$scope->dispose();
echo "cancelled, then disposed: still nothing\n";
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:3 in Scope disposed at %s:5 in %s on line 5
no more warnings
cancelled, then disposed: still nothing
