--TEST--
Rule S6: a cancelled scope is closed; its flags say so
--FILE--
<?php
$scope = new Async\Scope();
var_dump($scope->isClosed(), $scope->isCancelled(), $scope->isFinished());
$scope->spawn(fn() => Async\delay(60000));
var_dump($scope->isFinished());
$scope->cancel();
var_dump($scope->isClosed(), $scope->isCancelled());
Async\suspend();
var_dump($scope->isFinished());
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
