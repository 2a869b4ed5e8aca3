--TEST--
Rule T5: iterate() calls $callback($value, $key) for each element in a coroutine of its own, concurrently, and returns once every callback has ended; the array it walks is a copy
--FILE--
<?php
$main = Async\currentCoroutine();
$items = ['a' => 300, 'b' => 100, 'c' => 200];
$running = 0;
$peak = 0;
$ended = 0;
Async\iterate($items, function (int $ms, string $key) use ($main, &$items, &$running, &$peak, &$ended) {
    echo "start $key in its own coroutine: ", var_export(Async\currentCoroutine() !== $main, true), "\n";
    $items['z'] = 0;
    $peak = max($peak, ++$running);
    Async\delay($ms);
    $running--;
    $ended++;
    echo "end $key\n";
});
echo "returned after every callback ($ended), all three at once: ", var_export($peak === 3, true), "\n";
?>
--EXPECT--
start a in its own coroutine: true
start b in its own coroutine: true
start c in its own coroutine: true
end b
end c
end a
returned after every callback (3), all three at once: true
