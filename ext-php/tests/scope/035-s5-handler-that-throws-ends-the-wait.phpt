--TEST--
Rule S5: an error handler that throws ends awaitAfterCancellation() with its exception
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try { Async\delay(60000); } catch (Async\CancellationError) {}
    throw new LogicException("late failure");
});
$scope->spawn(function () {
    try { Async\delay(60000); } finally { Async\delay(20); echo "slow cleanup done\n"; }
});
Async\suspend();
$scope->cancel();
try {
    $scope->awaitAfterCancellation(function (Throwable $e) {
        throw new RuntimeException("handler gave up on: " . $e->getMessage());
    });
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
$scope->awaitAfterCancellation(null, Async\timeout(60000));
echo "end\n";
?>
--EXPECT--
handler gave up on: late failure
slow cleanup done
end
