--TEST--
Rule S10/S11: the handler gets the Scope object of the scope, the failing Coroutine object and the exception thrown
--DESCRIPTION--
$failing is a handle on the coroutine, so its exception stays on it (S10,
Future semantics): awaitCompletion() returns, and the handler runs when the
program ends with nobody having awaited it, on the completed coroutine.
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
