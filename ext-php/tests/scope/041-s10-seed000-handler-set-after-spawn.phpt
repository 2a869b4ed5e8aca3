--TEST--
Rule S10 (seed 000, "Exception Handling"): a handler set after spawn() but before the coroutine runs handles its error
--DESCRIPTION--
The seed's handler takes (Exception $e); docs/rules.md (S11) fixes the signature to
(Scope $scope, Coroutine $coroutine, Throwable $e), used here.
--FILE--
<?php
use Async\Scope;

$scope = new Scope();
$scope->spawn(function() {
    throw new Exception("Task 1");
});

$scope->setExceptionHandler(function (Scope $scope, Async\Coroutine $coroutine, Throwable $e) {
    echo "Caught exception: {$e->getMessage()}\n";
});

$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
Caught exception: Task 1
