--TEST--
Rule S10/C15: an error nobody received moves to the parent when the scope is dropped; at the global scope it ends the program
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown function\n"));
$other = Async\spawn(function () {
    try { Async\delay(60000); } catch (Async\CancellationError $e) { echo "other: ", $e->getMessage(), "\n"; }
});
$scope = new Async\Scope();
$scope->spawn(function () { throw new RuntimeException("never looked at"); });
Async\suspend();
echo "dropping the scope\n";
unset($scope);
Async\suspend();
echo "main goes on after the shutdown started\n";
?>
--EXPECTF--
dropping the scope
other: Graceful shutdown: unhandled RuntimeException: never looked at

Fatal error: Uncaught RuntimeException: never looked at in %s:7
Stack trace:
#0 [internal function]: {closure}()
#1 {main}
  thrown in %s on line 7
shutdown function
