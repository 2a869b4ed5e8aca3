--TEST--
Rule S5/S10: awaitAfterCancellation() without an error handler is a responsibility point, like awaitCompletion(): an exception a cancelled coroutine throws is thrown to its caller instead of escalating
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try {
        Async\delay(60000);
    } catch (Async\CancellationError) {
        throw new RuntimeException("cleanup failed");
    }
});
Async\suspend();
$scope->cancel();
try {
    $scope->awaitAfterCancellation();
} catch (RuntimeException $e) {
    echo "caller received: ", $e->getMessage(), "\n";
}
echo "end\n";
?>
--EXPECT--
caller received: cleanup failed
end
