--TEST--
Rule C14: coroutines waiting for a timer are not in a deadlock
--FILE--
<?php
$a = Async\spawn(function () { Async\delay(30); return "timer fired"; });
$b = Async\spawn(fn() => Async\await($a));
echo Async\await($b), "\n";
?>
--EXPECT--
timer fired
