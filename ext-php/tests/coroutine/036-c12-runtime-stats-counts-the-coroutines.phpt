--TEST--
Rule C12: runtime_stats() counts the unfinished coroutines (the main one included), those queued, suspended and zombies, and says the stack size and cache; get_coroutines() lists them
--FILE--
<?php
$s = Async\runtime_stats();
echo implode(",", array_keys($s)), "\n";
echo $s['coroutines_total'], " ", $s['coroutines_active'], "\n";
$a = Async\spawn(fn () => Async\delay(20));
$b = Async\spawn(fn () => 1);
$s = Async\runtime_stats();
echo "queued ", $s['coroutines_queued'], ", total ", $s['coroutines_total'], "\n";
Async\delay(1);
$s = Async\runtime_stats();
echo "suspended ", $s['coroutines_suspended'], ", total ", $s['coroutines_total'], ", listed ", count(Async\get_coroutines()), "\n";
var_dump($s['fiber_stack_size'] > 0, $s['fiber_pool_min']);
?>
--EXPECT--
coroutines_total,coroutines_active,coroutines_queued,coroutines_suspended,coroutines_zombie,fiber_stack_size,fiber_pool_min
1 1
queued 2, total 3
suspended 1, total 2, listed 2
bool(true)
int(128)
