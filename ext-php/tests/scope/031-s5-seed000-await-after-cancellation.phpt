--TEST--
Rule S5 (seed 000): awaitCompletion() throws at once after cancel; awaitAfterCancellation() then waits for the cleanup
--DESCRIPTION--
The seed's outer closure uses $scope without importing it (added here) and
blocks with sleep(1) in the finally block (usleep(1000) here: blocking on
purpose, the order does not depend on it).
--FILE--
<?php
use function Async\spawn;
use Async\Scope;

$scope = new Scope();

spawn(function() use ($scope) {
    try {
        $scope->awaitCompletion(Async\timeout(60000));
    } catch (\Async\CancellationError $exception) {
        $scope->awaitAfterCancellation();
        echo "Caught exception: ",$exception->getMessage()."\n";
    }
});

$scope->spawn(function() use ($scope) {
    $scope->cancel();

    try {
        Async\delay(1000);
    } finally {
        usleep(1000);
        echo "Finally\n";
    }
});
?>
--EXPECTF--
Finally
Caught exception: cancelled at %s:%d
