--TEST--
Rule S10/C7: a coroutine ending with a CancellationError does not fail its scope
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function () { echo "handler must not run\n"; });
$c = $scope->spawn(fn() => Async\delay(60000));
Async\suspend();
$c->cancel();
$scope->awaitCompletion(Async\timeout(60000));
var_dump($scope->isCancelled(), $c->isCancelled());
?>
--EXPECT--
bool(false)
bool(true)
