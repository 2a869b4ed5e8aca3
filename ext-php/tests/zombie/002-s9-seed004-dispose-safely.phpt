--TEST--
Rule S9 (seed 004): disposeSafely() does not cancel; the scope is closed for new coroutines; zombies stay in the list
--DESCRIPTION--
thirdPartySync() and myOwnCode() are stand-ins.
--FILE--
<?php
function thirdPartySync() { Async\delay(10); echo "third party done\n"; }
function myOwnCode() { Async\delay(5); echo "my code done\n"; return 1; }

$scope = new Async\Scope();
$scope->spawn(function() {
    thirdPartySync(); // Third-party code -- we don't know how it reacts to cancellation
});
$scope->spawn(function() {
    return myOwnCode(); // Our code -- correctly handles cancellation
});
Async\suspend();

// disposeSafely() does NOT cancel coroutines, but marks them as zombie
$scope->disposeSafely();

// Scope is closed for new coroutines.
try {
    $scope->spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
// Existing coroutines continue working as zombies.
var_dump(count($scope->getCoroutines()), $scope->isFinished());
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:6 in Scope disposed at %s:15 in %s on line 15

Warning: Coroutine is zombie at %s:9 in Scope disposed at %s:15 in %s on line 15
Coroutine scope is closed
int(2)
bool(false)
my code done
third party done
