--TEST--
Rule C11/S12: a scope's finally handlers run in the scope, before awaitAfterCancellation() returns; their exceptions reach the scope's exception handler
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo "scope handler: ", $e->getMessage(), "\n";
});
$scope->spawn(fn() => Async\delay(60000));
$scope->onFinally(function (Async\Scope $s) {
    echo "scope cleanup starts\n";
    Async\delay(10);
    echo "scope cleanup ends\n";
    throw new LogicException("scope cleanup broke");
});
Async\suspend();
$scope->cancel();
$scope->awaitAfterCancellation();
echo "waiter resumed\n";
?>
--EXPECT--
scope cleanup starts
scope cleanup ends
scope handler: scope cleanup broke
waiter resumed
