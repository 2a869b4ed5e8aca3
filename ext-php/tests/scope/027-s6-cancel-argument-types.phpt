--TEST--
Rule S6: cancel() accepts only a CancellationError (or null)
--FILE--
<?php
$scope = new Async\Scope();
try {
    $scope->cancel(new Exception("not a cancellation"));
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
$scope->cancel(new Async\AwaitCancelledException("a subclass is fine"));
var_dump($scope->isCancelled());
?>
--EXPECT--
Async\Scope::cancel(): Argument #1 ($cancellationError) must be of type ?Async\CancellationError, Exception given
bool(true)
