--TEST--
Rule S3 (seed 000, "Spawn with disposed scope"): spawning into a cancelled scope throws AsyncException
--FILE--
<?php
use Async\Scope;

$scope = new Scope();

$scope->spawn(function() {
    echo "Task 1\n";
});

$scope->cancel();

try {
    $scope->spawn(function() { // <- AsyncException: Coroutine scope is closed
        echo "Task 2\n";
    });
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\AsyncException: Coroutine scope is closed
