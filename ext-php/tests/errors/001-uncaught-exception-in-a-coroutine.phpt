--TEST--
Rule S10/C15: an exception no one handles reaches the global scope: graceful shutdown, then it is reported as uncaught with its file and line
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown function\n"; });
Async\spawn(function () {
    try {
        Async\delay(10000);
    } catch (Async\CancellationError $e) {
        echo "other coroutine cancelled: ", $e->getMessage(), "\n";
    }
});
Async\spawn(function () {
    throw new RuntimeException("nobody waits");
});
echo "main ends\n";
?>
--EXPECTF--
main ends
other coroutine cancelled: Graceful shutdown: unhandled RuntimeException: nobody waits

Fatal error: Uncaught RuntimeException: nobody waits in %s:11
Stack trace:
#0 [internal function]: {closure}()
#1 {main}
  thrown in %s on line 11
shutdown function
