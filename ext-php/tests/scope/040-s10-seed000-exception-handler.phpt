--TEST--
Rule S10/S11 (seed 000): setExceptionHandler() receives (Scope, Coroutine, Throwable) and handles the error
--FILE--
<?php
use Async\Scope;

$scope = new Scope();
$scope->setExceptionHandler(function (Async\Scope $scope, Async\Coroutine $coroutine, Throwable $e) {
    echo "Caught exception: {$e->getMessage()}\n in coroutine: {$coroutine->getSpawnLocation()}\n";
});

$scope->spawn(function() {
    throw new Exception("Task 1");
});

$scope->awaitCompletion(Async\timeout(60000));
var_dump($scope->isCancelled());
?>
--EXPECTF--
Caught exception: Task 1
 in coroutine: %s:9
bool(false)
