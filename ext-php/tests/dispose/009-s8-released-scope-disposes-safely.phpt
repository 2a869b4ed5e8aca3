--TEST--
Rule S8: destroying the Scope object while coroutines run disposes it safely: they become zombies and finish
--FILE--
<?php
function work() {
    $scope = new Async\Scope();
    $scope->spawn(function () { Async\delay(10); echo "zombie finishes\n"; });
    try {
        $scope->awaitCompletion(Async\timeout(1));
    } catch (Async\AwaitCancelledException) {
        echo "gave up waiting\n";
    }
    // $scope is destroyed here: disposeSafely by default (S8).
}
work();
echo "work() returned\n";
?>
--EXPECTF--
gave up waiting

Warning: Coroutine is zombie at %s:4 in Scope disposed at %s:12 in %s on line 12
work() returned
zombie finishes
