--TEST--
Rule S13 (seed 000, "Scope Inspection Tools"): getCoroutines() and getChildScopes()
--FILE--
<?php
use Async\Scope;

$scope = new Scope();

$scope->spawn(function() {
    echo "Task 1\n";
});

$scope->spawn(function() {
    echo "Task 2\n";
});

// Get all coroutines in this scope
$coroutines = $scope->getCoroutines();
echo "Number of coroutines in scope: " . count($coroutines) . "\n";

// Create child scope
$childScope = Scope::inherit($scope);

// Get all child scopes
$childScopes = $scope->getChildScopes();
echo "Number of child scopes: " . count($childScopes) . "\n";
?>
--EXPECT--
Number of coroutines in scope: 2
Number of child scopes: 1
Task 1
Task 2
