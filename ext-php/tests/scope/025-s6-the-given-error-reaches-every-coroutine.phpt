--TEST--
Rule S6: the CancellationError given to cancel() is the one every coroutine of the subtree receives
--FILE--
<?php
$scope = new Async\Scope();
$child = Async\Scope::inherit($scope);
$error = new Async\CancellationError("shutting the service down");
$seen = [];
foreach ([$scope, $child, $scope] as $s) {
    $s->spawn(function () use (&$seen) {
        try { Async\delay(60000); } catch (Async\CancellationError $e) { $seen[] = $e; }
    });
}
Async\suspend();
$scope->cancel($error);
$scope->awaitAfterCancellation(null, Async\timeout(60000));
var_dump(count($seen));
foreach ($seen as $e) var_dump($e === $error);
?>
--EXPECT--
int(3)
bool(true)
bool(true)
bool(true)
