--TEST--
Rule S4: awaitCompletion() waits for every active coroutine of the scope and of its descendants
--FILE--
<?php
$scope = new Async\Scope();
$child = Async\Scope::inherit($scope);
$grandchild = Async\Scope::inherit($child);
$scope->spawn(function () { Async\delay(5); echo "scope task\n"; });
$child->spawn(function () { Async\delay(10); echo "child task\n"; });
$grandchild->spawn(function () { Async\delay(15); echo "grandchild task\n"; });
$scope->awaitCompletion(Async\timeout(60000));
echo "awaited\n";
var_dump($scope->isFinished(), $child->isFinished(), $grandchild->isFinished());
?>
--EXPECT--
scope task
child task
grandchild task
awaited
bool(true)
bool(true)
bool(true)
