--TEST--
Rule S5/C5: awaitAfterCancellation() with a cancellation that fires first throws AwaitCancelledException
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try { Async\delay(60000); } finally { Async\delay(50); echo "cleanup done\n"; }
});
Async\suspend();
$scope->cancel();
try {
    $scope->awaitAfterCancellation(null, Async\timeout(5));
} catch (Async\AwaitCancelledException $e) {
    echo get_class($e), "\n";
}
echo "still cleaning up: ", count($scope->getCoroutines()), "\n";
$scope->awaitAfterCancellation(null, Async\timeout(60000));
echo "waited for the cleanup\n";
?>
--EXPECT--
Async\AwaitCancelledException
still cleaning up: 1
cleanup done
waited for the cleanup
