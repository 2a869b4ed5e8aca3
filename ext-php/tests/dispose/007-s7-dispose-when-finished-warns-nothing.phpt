--TEST--
Rule S7: disposing a scope whose coroutines all finished closes it without warnings
--FILE--
<?php
foreach (['dispose', 'disposeSafely'] as $how) {
    $scope = new Async\Scope();
    $scope->spawn(fn() => 1);
    $scope->awaitCompletion(Async\timeout(60000));
    $scope->$how();
    var_dump($scope->isClosed(), $scope->isFinished());
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
