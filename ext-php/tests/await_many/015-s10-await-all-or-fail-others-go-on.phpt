--TEST--
Rule S10: after await_all_or_fail() threw, a later failure of the others is no longer awaited: it reaches their scope
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(fn($s, $c, $e) => print("scope handler: {$e->getMessage()}\n"));
$a = $scope->spawn(function () { throw new RuntimeException("first"); });
$b = $scope->spawn(function () { Async\delay(10); throw new RuntimeException("second"); });
try {
    Async\await_all_or_fail([$a, $b]);
} catch (RuntimeException $e) {
    echo "await_all_or_fail: ", $e->getMessage(), "\n";
}
$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
await_all_or_fail: first
scope handler: second
