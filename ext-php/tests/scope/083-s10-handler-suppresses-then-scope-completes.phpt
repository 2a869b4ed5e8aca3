--TEST--
Rule S10/S12: a supervisor scope (handler set) is not cancelled by failures and completes normally when disposed
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(fn($s, $c, $e) => print("supervised: {$e->getMessage()}\n"));
$scope->onFinally(fn() => print("scope completed\n"));
for ($i = 1; $i <= 3; $i++) {
    $scope->spawn(function () use ($i) { if ($i % 2) throw new Exception("task $i"); echo "task $i ok\n"; });
}
$scope->awaitCompletion(Async\timeout(60000));
var_dump($scope->isCancelled());
$scope->disposeSafely();
Async\suspend();
?>
--EXPECT--
supervised: task 1
task 2 ok
supervised: task 3
bool(false)
scope completed
