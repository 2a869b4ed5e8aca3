--TEST--
Rule C1: deep PHP recursion in a coroutine grows its own VM stack
--FILE--
<?php
function depth($n) { return $n === 0 ? 0 : 1 + depth($n - 1); }
echo Async\await(Async\spawn('depth', 50000)), "\n";
$a = Async\spawn(function () { $r = depth(20000); Async\suspend(); return $r + depth(20000); });
$b = Async\spawn(function () { $r = depth(30000); Async\suspend(); return $r; });
echo Async\await($a), " ", Async\await($b), "\n";
?>
--EXPECT--
50000
40000 30000
