--TEST--
Rule S2 (seed 000, "Scope propagation"): coroutines spawned inside a scope's coroutine are siblings in that scope
--FILE--
<?php
use function Async\spawn;
use Async\Scope;

$scope = new Scope();

$scope->spawn(function() { // <- new scope
    echo "Sibling task 1\n";

    spawn(function() { // <- $scope is current scope
        echo "Sibling task 2\n";

        spawn(function() { // <- $scope is current scope
            echo "Sibling task 3\n";
        });
    });
});

$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
Sibling task 1
Sibling task 2
Sibling task 3
