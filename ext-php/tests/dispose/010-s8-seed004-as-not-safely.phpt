--TEST--
Rule S8 (seed 004, "Inheriting the Safely Flag"): asNotSafely() makes destruction cancel; child scopes inherit the flag
--FILE--
<?php
$scope = (new Async\Scope())->asNotSafely();
$child = Async\Scope::inherit($scope);
foreach (['scope' => $scope, 'child' => $child] as $name => $s) {
    $s->spawn(function () use ($name) {
        try {
            Async\delay(60000);
        } catch (Async\CancellationError $e) {
            echo "$name task cancelled\n";
        }
    });
}
Async\suspend();
unset($scope);
echo "scope dropped\n";
Async\suspend();
unset($child);
echo "child dropped\n";
?>
--EXPECTF--
Warning: Scope created at %s:2 was destroyed with 2 active coroutine(s) that were never awaited or disposed in %s on line 14

Warning: Coroutine spawned at %s:5 is cancelled by the Scope disposed at %s:14 in %s on line 14

Warning: Coroutine spawned at %s:5 is cancelled by the Scope disposed at %s:14 in %s on line 14
scope dropped
child task cancelled
scope task cancelled
child dropped
