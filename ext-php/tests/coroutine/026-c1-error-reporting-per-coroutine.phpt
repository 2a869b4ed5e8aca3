--TEST--
Rule C1: the @ operator in one coroutine does not silence another
--FILE--
<?php
$a = Async\spawn(function () { @Async\suspend(); echo $undefined1 ?? "a ok", "\n"; });
$b = Async\spawn(function () { echo $undefined2, "|b\n"; });
?>
--EXPECTF--
Warning: Undefined variable $undefined2 in %s on line 3
|b
a ok
