--TEST--
Rule S7/S9: disposeAfterTimeout() lets coroutines run as zombies until the deadline, then cancels them
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try {
        Async\delay(5);
        echo "first step before the deadline\n";
        Async\delay(60000);
    } catch (Async\CancellationError $e) {
        echo $e->getMessage(), "\n";
    }
});
Async\suspend();
@$scope->disposeAfterTimeout(100);
$scope->awaitCompletion(Async\timeout(60000));
echo "zombies do not block awaitCompletion\n";
Async\delay(500);
var_dump($scope->isCancelled(), $scope->isFinished());
?>
--EXPECTF--
zombies do not block awaitCompletion
first step before the deadline
Scope disposal timeout expired; cancelling the coroutines of the scope disposed at %s:13
bool(true)
bool(true)
