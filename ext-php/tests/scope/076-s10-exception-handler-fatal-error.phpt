--TEST--
Rule S10: a fatal error inside an exception handler ends the program like any fatal error
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown function\n"));
$scope = new Async\Scope();
$scope->setExceptionHandler(function () {
    trigger_error("fatal in the handler", E_USER_ERROR);
});
$scope->spawn(function () { throw new Exception("x"); });
$scope->spawn(function () { Async\delay(60000); echo "never\n"; });
$scope->awaitCompletion(Async\timeout(60000));
echo "never\n";
?>
--EXPECTF--
Fatal error: fatal in the handler in %s on line 5
shutdown function
