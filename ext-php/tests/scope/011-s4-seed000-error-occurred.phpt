--TEST--
Rule S4 (seed 000, "Scope waiting"): awaitCompletion() rethrows an exception three spawns deep
--FILE--
<?php
use function Async\spawn;
use Async\Scope;

$scope = new Scope();

$scope->spawn(function() {
    spawn(function() {
        spawn(function() {
            throw new Exception("Error occurred");
        });
    });
});

try {
    $scope->awaitCompletion(Async\timeout(60000));
} catch (Exception $exception) {
    echo $exception->getMessage()."\n";
}
?>
--EXPECT--
Error occurred
