--TEST--
Rule S10: without handlers an error cancels its scope (the siblings get a CancellationError) and the awaiter receives it
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try {
        Async\delay(60000);
    } catch (Async\CancellationError $e) {
        echo "sibling: ", $e->getMessage(), "\n";
    }
});
$scope->spawn(function () { Async\suspend(); throw new RuntimeException("broken"); });
try {
    $scope->awaitCompletion(Async\timeout(60000));
} catch (RuntimeException $e) {
    echo "awaiter: ", $e->getMessage(), "\n";
}
var_dump($scope->isCancelled());
?>
--EXPECT--
sibling: Scope cancelled by an unhandled error: RuntimeException: broken
awaiter: broken
bool(true)
