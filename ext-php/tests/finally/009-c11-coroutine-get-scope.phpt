--TEST--
Coroutine::getScope() is the scope a coroutine runs in, null once it has completed
--FILE--
<?php
$scope = new Async\Scope();
$c = $scope->spawn(fn() => Async\currentCoroutine()->getScope());
var_dump($c->getScope() === $scope);
var_dump(Async\await($c) === $scope, $c->getScope());
?>
--EXPECT--
bool(true)
bool(true)
NULL
