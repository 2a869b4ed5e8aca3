--TEST--
Rule C3: the script waits for coroutines that wait for timers
--FILE--
<?php
// 20 ms apart: a loaded machine may pause the process for more than 10 ms
// between two of these spawns' delay() calls.
foreach ([60, 20, 40] as $ms) {
    Async\spawn(function () use ($ms) { Async\delay($ms); echo "timer $ms\n"; });
}
echo "main done\n";
?>
--EXPECT--
main done
timer 20
timer 40
timer 60
