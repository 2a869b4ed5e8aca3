--TEST--
Rule S5: awaitAfterCancellation() before cancel() throws AsyncException
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(fn() => Async\delay(10));
try {
    $scope->awaitAfterCancellation();
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$scope->disposeSafely();
try {
    $scope->awaitAfterCancellation();
} catch (Async\AsyncException $e) {
    echo "after disposeSafely: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
Async\AsyncException: awaitAfterCancellation() may only be called after the scope was cancelled

Warning: Coroutine is zombie at %s:3 in Scope disposed at %s:9 in %s on line 9
after disposeSafely: awaitAfterCancellation() may only be called after the scope was cancelled
