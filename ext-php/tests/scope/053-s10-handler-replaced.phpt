--TEST--
Rule S10/S11: setting a handler again replaces the previous one
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function () { echo "old handler\n"; });
$scope->setExceptionHandler(function ($s, $c, $e) { echo "new handler: ", $e->getMessage(), "\n"; });
$scope->spawn(function () { throw new Exception("x"); });
$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
new handler: x
