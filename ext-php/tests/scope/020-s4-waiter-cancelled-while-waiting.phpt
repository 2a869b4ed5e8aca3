--TEST--
Rule S4/C7: a coroutine waiting in awaitCompletion() can be cancelled; the scope is not
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(fn() => Async\delay(50));
$waiter = Async\spawn(function () use ($scope) {
    try {
        $scope->awaitCompletion(Async\timeout(60000));
    } catch (Async\CancellationError $e) {
        echo "waiter: ", $e->getMessage(), "\n";
    }
});
Async\suspend();
$waiter->cancel(new Async\CancellationError("stop waiting"));
try {
    Async\await($waiter);
} catch (Async\CancellationError $e) {
    // C8: a coroutine that was cancelled ends cancelled, even if it caught it.
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($scope->isCancelled());
?>
--EXPECT--
waiter: stop waiting
await: stop waiting
bool(false)
