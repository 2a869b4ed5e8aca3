--TEST--
Rule S4 (seed 000): awaitCompletion() after cancel() throws the cancellation at once
--DESCRIPTION--
The seed catches (Exception $exception); docs/rules.md (C9) makes CancellationError an
\Error, so the test catches Async\CancellationError. The seed's task1/task2
are defined here.
--FILE--
<?php
use Async\Scope;

function task1() { Async\delay(1000); }
function task2() { Async\delay(1000); }

$scope = new Scope();

try {
    $scope->spawn(task1(...));
    $scope->spawn(task2(...));

    $scope->cancel();

    // Wait all tasks
    $scope->awaitCompletion(Async\timeout(60000));
} catch (Async\CancellationError $exception) {
    echo "Caught exception: ",$exception->getMessage()."\n";
}
?>
--EXPECTF--
Caught exception: cancelled at %s:%d
