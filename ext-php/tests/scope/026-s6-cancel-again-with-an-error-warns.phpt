--TEST--
Rule S6: cancelling a cancelled scope again with an error warns that it is ignored; without an error it is silent
--FILE--
<?php
$scope = new Async\Scope();
$scope->cancel(new Async\CancellationError("first"));
$scope->cancel();
echo "silent\n";
$scope->cancel(new Async\CancellationError("second"));
try {
    $scope->awaitCompletion(Async\timeout(10));
} catch (Async\CancellationError $e) {
    echo "kept: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
silent

Warning: The Scope created at %s:2 is already cancelled; this cancellation is ignored in %s on line 6
kept: first
