--TEST--
Rule S8: asNotSafely() returns the same Scope object
--FILE--
<?php
$scope = new Async\Scope();
var_dump($scope->asNotSafely() === $scope);
?>
--EXPECT--
bool(true)
