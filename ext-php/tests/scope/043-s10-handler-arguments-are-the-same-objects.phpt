--TEST--
Rule S10/S11: the handler gets the Scope object of the scope, the failing Coroutine object and the exception thrown
--FILE--
<?php
$scope = new Async\Scope();
$thrown = new DomainException("boom");
$scope->setExceptionHandler(function ($s, $c, $e) use ($scope, &$failing, $thrown) {
    var_dump($s === $scope, $c === $failing, $e === $thrown);
    var_dump($c->isCompleted(), $c->isRunning());
});
$failing = $scope->spawn(function () use ($thrown) { throw $thrown; });
$scope->awaitCompletion(Async\timeout(60000));
var_dump($failing->getException() === $thrown);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
