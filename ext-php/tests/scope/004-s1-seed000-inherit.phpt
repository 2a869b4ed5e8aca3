--TEST--
Rule S1 (seed 000, "Scope Hierarchy"): Scope::inherit($scope) makes a child of $scope; without argument, of the current scope
--FILE--
<?php
use function Async\spawn;
use Async\Scope;

// New independent root scope
$scope = new Scope();

// child scope from $scope number 1
$childScope1 = Scope::inherit($scope);

$scope->spawn(function() use (&$childScope2) {
    $childScope2 = Scope::inherit(); // child scope from $scope number 2
});
$scope->awaitCompletion(Async\timeout(60000));

$children = $scope->getChildScopes();
var_dump(count($children), $children[0] === $childScope1, $children[1] === $childScope2);
?>
--EXPECT--
int(2)
bool(true)
bool(true)
