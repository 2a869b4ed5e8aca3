--TEST--
Rule S10: setChildScopeExceptionHandler() does not handle errors of the scope's own coroutines
--FILE--
<?php
$scope = new Async\Scope();
$scope->setChildScopeExceptionHandler(function () { echo "must not run\n"; });
$scope->spawn(function () { throw new Exception("own coroutine"); });
try {
    $scope->awaitCompletion(Async\timeout(60000));
} catch (Exception $e) {
    echo "awaiter: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
awaiter: own coroutine
