--TEST--
async.stack_size defaults to 256K, room for a few hundred levels of recursion through internal callbacks
--DESCRIPTION--
The default keeps coroutine stack tops close together: every coroutine's
first run touches the top page of its own stack, and on a VM a page costs
more the fewer of its neighbours in the same 2 MiB region are touched with
it (docs/benchmarks.md, the first burst). Recursion in PHP code does not use
the C stack (C1); recursion through internal callbacks does, about 0.7 KiB
per level of array_map() on PHP 8.2, so 200 levels fit with room to spare.
--FILE--
<?php
var_dump(ini_get('async.stack_size'));
function down(int $n): int { return $n === 0 ? 0 : 1 + array_map('down', [$n - 1])[0]; }
echo Async\await(Async\spawn('down', 200)), "\n";
?>
--EXPECT--
string(4) "256K"
200
