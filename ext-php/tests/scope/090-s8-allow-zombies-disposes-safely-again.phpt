--TEST--
Rule S8: Scope::allowZombies() returns the scope and makes its destruction dispose it safely again (the default; the later of asNotSafely() and allowZombies() wins): its coroutines go on as zombies
--FILE--
<?php
$gate = new Async\FutureState();
$scope = (new Async\Scope())->asNotSafely();
var_dump($scope->allowZombies() === $scope);
$zombie = $scope->spawn(function () use ($gate) {
    (new Async\Future($gate))->await();
    echo "the coroutine went on as a zombie\n";
});
Async\suspend();
unset($scope);
echo "first scope dropped\n";
$cancelled = (new Async\Scope())->allowZombies()->asNotSafely();
$doomed = $cancelled->spawn(function () {
    try {
        Async\delay(100);
    } catch (Async\CancellationError) {
        echo "asNotSafely() came last: cancelled\n";
    }
});
Async\suspend();
unset($cancelled);
try {
    Async\await($doomed);
} catch (Async\CancellationError) {
    echo "it ended cancelled (C8)\n";
}
$gate->complete(true);
Async\await($zombie);
?>
--EXPECTF--
bool(true)

Warning: Coroutine is zombie at %s in Scope disposed at %s
first scope dropped
%A
asNotSafely() came last: cancelled
it ended cancelled (C8)
the coroutine went on as a zombie
