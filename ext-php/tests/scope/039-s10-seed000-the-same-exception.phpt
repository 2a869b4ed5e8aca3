--TEST--
Rule S10/C4 (seed 000, "Error Handling"): every responsibility point receives the same exception object
--FILE--
<?php
use Async\Scope;

$scope = new Scope();
$scope->spawn(function() {
    throw new Exception("Task 1");
});

$exception1 = null;
$exception2 = null;

$scope2 = new Scope();

$scope2->spawn(function() use ($scope, &$exception1) {
    try {
        $scope->awaitCompletion(Async\timeout(60000));
    } catch (Exception $e) {
        $exception1 = $e;
        echo "Caught exception1: {$e->getMessage()}\n";
    }
});

$scope2->spawn(function() use ($scope, &$exception2) {
    try {
        $scope->awaitCompletion(Async\timeout(60000));
    } catch (Exception $e) {
        $exception2 = $e;
        echo "Caught exception2: {$e->getMessage()}\n";
    }
});

$scope2->awaitCompletion(Async\timeout(60000));

echo $exception1 === $exception2 ? "The same exception\n" : "Different exceptions\n";
?>
--EXPECT--
Caught exception1: Task 1
Caught exception2: Task 1
The same exception
