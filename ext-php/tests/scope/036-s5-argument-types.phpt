--TEST--
Rule S5: awaitAfterCancellation() takes a callable or null, and an Awaitable or null
--FILE--
<?php
$scope = new Async\Scope();
$scope->cancel();
try {
    $scope->awaitAfterCancellation("no such function");
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    $scope->awaitAfterCancellation(null, new stdClass);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
$scope->awaitAfterCancellation(fn() => null, Async\timeout(10));
echo "ok\n";
?>
--EXPECT--
Async\Scope::awaitAfterCancellation(): Argument #1 ($errorHandler) must be a valid callback or null, function "no such function" not found or invalid function name
Async\Scope::awaitAfterCancellation(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
ok
