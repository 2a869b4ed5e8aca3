--TEST--
Rule S4: awaitCompletion() on a scope with nothing active returns at once, also repeatedly
--FILE--
<?php
$scope = new Async\Scope();
$scope->awaitCompletion(Async\timeout(60000));
echo "empty scope\n";
$scope->spawn(fn() => 1);
$scope->awaitCompletion(Async\timeout(60000));
$scope->awaitCompletion(Async\timeout(60000));
echo "done twice\n";
var_dump($scope->isFinished(), $scope->isClosed());
?>
--EXPECT--
empty scope
done twice
bool(true)
bool(false)
