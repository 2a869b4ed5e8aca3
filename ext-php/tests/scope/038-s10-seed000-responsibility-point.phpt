--TEST--
Rule S10 (seed 000, "Responsibility points"): the coroutine that awaits the scope receives its unhandled exception
--FILE--
<?php
use Async\Scope;

$scope = new Scope();
$scope->spawn(function() {
    throw new Exception("Task 1");
});

try {
    $scope->awaitCompletion(Async\timeout(60000));
} catch (\Throwable $e) {
    echo "Caught exception: {$e->getMessage()}\n";
}
?>
--EXPECT--
Caught exception: Task 1
