--TEST--
Rule S5: awaitAfterCancellation() waits for every coroutine, zombies included; awaitCompletion() does not
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try {
        Async\delay(30);
        echo "zombie finished\n";
    } finally {
        echo "zombie ended\n";   // cancelled: before awaitAfterCancellation() returns
    }
});
Async\suspend();
@$scope->disposeSafely();
$scope->awaitCompletion(Async\timeout(60000));
echo "awaitCompletion returned: no active coroutine left\n";
$scope->cancel();
$scope->awaitAfterCancellation(null, Async\timeout(60000));
echo "awaitAfterCancellation returned\n";
?>
--EXPECT--
awaitCompletion returned: no active coroutine left
zombie ended
awaitAfterCancellation returned
