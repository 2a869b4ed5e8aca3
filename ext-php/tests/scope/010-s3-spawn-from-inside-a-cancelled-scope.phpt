--TEST--
Rule S3: a coroutine of a cancelled scope cannot spawn into it either (spawn() uses the current scope)
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () use ($scope) {
    $scope->cancel();
    try {
        Async\spawn(fn() => 1);
    } catch (Async\AsyncException $e) {
        echo "inside: ", $e->getMessage(), "\n";
    }
    echo "still running: ", var_export(Async\currentCoroutine()->isCancellationRequested(), true), "\n";
});
try {
    $scope->awaitCompletion(Async\timeout(1000));
} catch (Async\CancellationError $e) {
    echo "awaitCompletion: ", get_class($e), "\n";
}
?>
--EXPECT--
inside: Coroutine scope is closed
still running: true
awaitCompletion: Async\CancellationError
