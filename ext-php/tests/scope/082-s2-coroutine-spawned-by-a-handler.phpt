--TEST--
Rule S2/S10: an exception handler runs on the failing coroutine, so spawn() inside it uses that coroutine's scope
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function ($s, $c, $e) {
    Async\spawn(fn() => print("report sent from the handler's scope: " . var_export(Async\currentCoroutine()->getScope() === $s, true) . "\n"));
});
$scope->spawn(function () { throw new Exception("x"); });
$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
report sent from the handler's scope: true
