--TEST--
Rules S4/S6/S7 (seed 003, "API for Lifetime Management"): wait for the children, cancel them, close the scope
--FILE--
<?php
// 1. Parent waits for all child tasks
$scope = new Async\Scope();
$scope->spawn(function() { Async\delay(5); echo "task 1\n"; });
$scope->spawn(function() { echo "task 2\n"; });
$scope->awaitCompletion(Async\timeout(60000));
echo "both done\n";

// 2. Parent cancels all child tasks, recursively
$scope = new Async\Scope();
$child = Async\Scope::inherit($scope);
$child->spawn(function() { try { Async\delay(60000); } catch (Async\CancellationError) { echo "child task cancelled\n"; } });
Async\suspend();
$scope->cancel();
Async\suspend();

// 3. Parent closes the Scope and releases resources
$scope = new Async\Scope();
$scope->dispose();
try {
    $scope->spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo "closed: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
task 2
task 1
both done
child task cancelled
closed: Coroutine scope is closed
