--TEST--
A fatal error in a coroutine ends the program: no other coroutine runs on, shutdown functions run
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown function\n"; });
class Res { function __destruct() { echo "destructor not run after a fatal error\n"; } }
$a = Async\spawn(function () { $r = new Res; echo "a start\n"; Async\suspend(); echo "a never\n"; });
$b = Async\spawn(function () { echo "b fails\n"; trigger_error("fatal in b", E_USER_ERROR); });
$c = Async\spawn(function () { echo "c never\n"; });
Async\await($b);
echo "main never\n";
?>
--EXPECTF--
a start
b fails

Fatal error: fatal in b in %s on line 5
shutdown function
