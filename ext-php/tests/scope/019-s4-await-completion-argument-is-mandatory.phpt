--TEST--
Rule S4: awaitCompletion() requires an Awaitable cancellation (seed 003 calls it without one; docs/rules.md makes it mandatory)
--FILE--
<?php
$scope = new Async\Scope();
try {
    $scope->awaitCompletion();
} catch (ArgumentCountError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    $scope->awaitCompletion(null);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    $scope->awaitCompletion($scope);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
$scope->awaitCompletion(Async\spawn(fn() => 1));
echo "a coroutine works as the cancellation\n";
?>
--EXPECT--
ArgumentCountError: Async\Scope::awaitCompletion() expects exactly 1 argument, 0 given
Async\Scope::awaitCompletion(): Argument #1 ($cancellation) must be of type Async\Awaitable, null given
Async\Scope::awaitCompletion(): Argument #1 ($cancellation) must be of type Async\Awaitable, Async\Scope given
a coroutine works as the cancellation
