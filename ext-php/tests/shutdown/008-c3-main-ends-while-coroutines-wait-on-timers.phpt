--TEST--
Rule C3: the script waits for coroutines that wait for timers
--FILE--
<?php
foreach ([30, 10, 20] as $ms) {
    Async\spawn(function () use ($ms) { Async\delay($ms); echo "timer $ms\n"; });
}
echo "main done\n";
?>
--EXPECT--
main done
timer 10
timer 20
timer 30
