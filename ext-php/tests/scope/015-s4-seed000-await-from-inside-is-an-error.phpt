--TEST--
Rule S4 (seed 000, "Error detection"): awaitCompletion() from a coroutine of the scope throws AsyncException
--FILE--
<?php
use Async\Scope;

$scope = new Scope();

$scope->spawn(function() use ($scope) {
    try {
        $scope->awaitCompletion(Async\timeout(1000));
    } catch (Async\AsyncException $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
});
$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECTF--
Async\AsyncException: Awaiting a scope from within itself or its child scope would cause a deadlock. Scope created at %s:4
