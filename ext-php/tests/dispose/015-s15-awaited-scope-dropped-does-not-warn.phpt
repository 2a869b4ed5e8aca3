--TEST--
Rule S15: a root scope someone awaited (even if the wait gave up) is not reported as never awaited; a child scope never is
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(fn() => Async\delay(20));
try { $scope->awaitCompletion(Async\timeout(1)); } catch (Async\AwaitCancelledException) {}
unset($scope);
$parent = new Async\Scope();
$child = Async\Scope::inherit($parent);
$child->spawn(fn() => Async\delay(20));
Async\suspend();
unset($child);
echo "end\n";
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:3 in Scope disposed at %s:5 in %s on line 5

Warning: Coroutine is zombie at %s:8 in Scope disposed at %s:10 in %s on line 10
end
