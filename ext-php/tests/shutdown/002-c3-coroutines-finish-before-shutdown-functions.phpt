--TEST--
Rule C3: coroutines finish before the shutdown functions run, even ones registered first
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown function\n"; });
Async\spawn(function () { Async\delay(20); echo "coroutine finished\n"; });
echo "script ends\n";
?>
--EXPECT--
script ends
coroutine finished
shutdown function
