--TEST--
Rule S4/C5: when the cancellation awaitable fires first, awaitCompletion() throws AwaitCancelledException; the scope goes on
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () { Async\delay(50); echo "task finished anyway\n"; });
try {
    $scope->awaitCompletion(Async\timeout(1));
} catch (Async\AwaitCancelledException $e) {
    echo get_class($e), "\n";
}
var_dump($scope->isCancelled(), $scope->isFinished());
$scope->awaitCompletion(Async\timeout(60000));
var_dump($scope->isFinished());
?>
--EXPECT--
Async\AwaitCancelledException
bool(false)
bool(false)
task finished anyway
bool(true)
