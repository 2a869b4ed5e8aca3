--TEST--
Rule S8: Scope::allowZombies() returns the scope and makes its destruction dispose it safely again (the default; the later of asNotSafely() and allowZombies() wins): its coroutines go on as zombies
--FILE--
<?php
$scope = (new Async\Scope())->asNotSafely();
var_dump($scope->allowZombies() === $scope);
$scope->spawn(function () {
    Async\delay(20);
    echo "the coroutine went on as a zombie\n";
});
Async\delay(1);
unset($scope);
$cancelled = (new Async\Scope())->allowZombies()->asNotSafely();
$cancelled->spawn(function () {
    try {
        Async\delay(20);
    } catch (Async\CancellationError) {
        echo "asNotSafely() came last: cancelled\n";
    }
});
Async\delay(1);
unset($cancelled);
Async\delay(40);
?>
--EXPECTF--
bool(true)
%AasNotSafely() came last: cancelled
%Athe coroutine went on as a zombie
