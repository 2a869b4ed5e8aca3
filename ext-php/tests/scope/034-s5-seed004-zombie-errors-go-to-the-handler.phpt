--TEST--
Rule S5 (seed 004, "Waiting for Zombie Coroutines"): errors of the coroutines go to the handler (Throwable $error, Scope $scope)
--DESCRIPTION--
longRunningTask() ignores its cancellation and fails afterwards; anotherTask()
honours it (cancellations are not errors, C7).
--FILE--
<?php
function longRunningTask() {
    try {
        Async\delay(60000);
    } catch (Async\CancellationError) {
        // Ignores the cancellation, works on, then fails.
    }
    Async\delay(5);
    throw new RuntimeException("disk full");
}
function anotherTask() { Async\delay(60000); }

$scope = new Async\Scope();
$scope->spawn(fn() => longRunningTask());
$scope->spawn(fn() => anotherTask());
Async\suspend();

// Cancel -- coroutines that can't be cancelled will become zombies
$scope->cancel();

// awaitAfterCancellation() will wait for ALL, including zombies
$scope->awaitAfterCancellation(function (\Throwable $error, Async\Scope $s) use ($scope) {
    // Error handler for zombie coroutines
    echo "Zombie error: " . $error->getMessage() . "\n";
    var_dump($s === $scope);
});
echo "all finished\n";
?>
--EXPECT--
Zombie error: disk full
bool(true)
all finished
