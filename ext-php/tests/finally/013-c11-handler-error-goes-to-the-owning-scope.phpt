--TEST--
Rule C11/S10: an exception a handler throws goes through the error flow of the coroutine's scope: its exception handler sees it, not the global scope
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function (Async\Scope $s, Async\Coroutine $c, Throwable $e) use ($scope) {
    echo "scope handler: ", $e->getMessage(), ", same scope: ", var_export($s === $scope, true), "\n";
});
$c = $scope->spawn(fn() => "work");
$c->onFinally(function () { throw new RuntimeException("cleanup broke"); });
$scope->awaitCompletion(Async\timeout(60000));
echo "the scope waited for the cleanup\n";
var_dump($scope->isCancelled());
?>
--EXPECT--
scope handler: cleanup broke, same scope: true
the scope waited for the cleanup
bool(false)
