--TEST--
Rule C1: generators work inside coroutines, also across suspensions
--FILE--
<?php
function gen() { for ($i = 0; $i < 3; $i++) { Async\suspend(); yield $i; } }
$a = Async\spawn(function () { $out = []; foreach (gen() as $v) $out[] = "a$v"; return implode(',', $out); });
$b = Async\spawn(function () { $out = []; foreach (gen() as $v) $out[] = "b$v"; return implode(',', $out); });
echo Async\await($a), " ", Async\await($b), "\n";
?>
--EXPECT--
a0,a1,a2 b0,b1,b2
