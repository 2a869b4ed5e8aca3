--TEST--
exit() in a coroutine ends the program after that coroutine unwound; others do not run on
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown function runs\n"; });
$a = Async\spawn(function () { echo "a start\n"; Async\suspend(); echo "a never resumes\n"; });
$b = Async\spawn(function () { echo "b exits\n"; try { exit(); } finally { echo "finally is skipped by exit\n"; } });
$c = Async\spawn(function () { echo "c never starts\n"; });
Async\await($b);
echo "main never continues\n";
?>
--EXPECT--
a start
b exits
shutdown function runs
