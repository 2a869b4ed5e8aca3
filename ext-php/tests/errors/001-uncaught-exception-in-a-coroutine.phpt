--TEST--
An exception no one awaits is reported as uncaught, with its file and line, after the others finished
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown function\n"; });
Async\spawn(function () {
    throw new RuntimeException("nobody waits");
});
Async\spawn(function () { Async\delay(10); echo "other coroutine finishes\n"; });
echo "main ends\n";
?>
--EXPECTF--
main ends
other coroutine finishes

Fatal error: Uncaught RuntimeException: nobody waits in %s:4
Stack trace:
#0 [internal function]: {closure}()
#1 {main}
  thrown in %s on line 4
shutdown function
