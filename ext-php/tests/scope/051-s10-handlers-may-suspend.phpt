--TEST--
Rule S10: an exception handler is PHP code on the failing coroutine: it may suspend and await
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function ($s, $c, Throwable $e) {
    Async\delay(5);
    $report = Async\await(Async\spawn(fn() => "report for " . $e->getMessage()));
    echo $report, "\n";
    var_dump(Async\currentCoroutine() === $c);
});
$scope->spawn(function () { throw new Exception("x"); });
$scope->awaitCompletion(Async\timeout(60000));
echo "awaited after the handler\n";
?>
--EXPECT--
report for x
bool(true)
awaited after the handler
