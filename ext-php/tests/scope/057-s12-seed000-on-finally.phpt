--TEST--
Rule S12 (seed 000, "Scope::onFinally"): the callback receives the completed scope
--DESCRIPTION--
The callback runs when the scope completes: it is closed (here: cancelled
by the unhandled "Task 1", S10) and every coroutine finished.
--FILE--
<?php
use Async\Scope;

$scope = new Scope();
$scope->spawn(function() {
    throw new Exception("Task 1");
});

$scope->onFinally(function (Scope $completedScope) use ($scope) {
    echo "Scope " . spl_object_id($completedScope) . " completed\n";
    var_dump($completedScope === $scope);
});

try {
    $scope->awaitCompletion(Async\timeout(60000));
} catch (Exception $e) {
    echo "Caught: ", $e->getMessage(), "\n";
}
Async\suspend();
?>
--EXPECTF--
Caught: Task 1
Scope %d completed
bool(true)
