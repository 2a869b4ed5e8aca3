--TEST--
Rule T5: with $concurrency at most that many callbacks run at once; the next element is taken when one ends; 1 runs them one after another
--FILE--
<?php
$running = 0;
$peak = 0;
Async\iterate(range(1, 6), function (int $v) use (&$running, &$peak) {
    $running++;
    $peak = max($peak, $running);
    Async\delay(3);
    $running--;
}, concurrency: 2);
echo "peak $peak\n";
Async\iterate(['x', 'y', 'z'], function (string $v) {
    echo "begin $v\n";
    Async\delay(1);
    echo "finish $v\n";
}, 1);
?>
--EXPECT--
peak 2
begin x
finish x
begin y
finish y
begin z
finish z
