--TEST--
Rule S12/S8: a pending onFinally() callback does not keep the scope's owner alive: dropping it still disposes the scope
--FILE--
<?php
$scope = new Async\Scope();
$scope->onFinally(function (Async\Scope $s) {
    echo "completed, disposed by its owner's destruction: ", var_export($s->isClosed(), true), "\n";
});
$scope->spawn(function () { Async\delay(10); echo "zombie task ends\n"; });
Async\suspend();
unset($scope);
echo "owner dropped\n";
?>
--EXPECTF--
Warning: Scope created at %s:2 was destroyed with 1 active coroutine(s) that were never awaited or disposed in %s on line 8

Warning: Coroutine is zombie at %s:6 in Scope disposed at %s:8 in %s on line 8
owner dropped
zombie task ends
completed, disposed by its owner's destruction: true
