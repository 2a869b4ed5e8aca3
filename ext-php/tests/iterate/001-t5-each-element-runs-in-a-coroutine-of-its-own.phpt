--TEST--
Rule T5: iterate() calls $callback($value, $key) for each element in a coroutine of its own, concurrently, and returns once every callback has ended; the array it walks is a copy
--FILE--
<?php
$start = hrtime(true);
$main = Async\currentCoroutine();
$items = ['a' => 30, 'b' => 10, 'c' => 20];
Async\iterate($items, function (int $ms, string $key) use ($main, &$items) {
    echo "start $key in its own coroutine: ", var_export(Async\currentCoroutine() !== $main, true), "\n";
    $items['z'] = 0;
    Async\delay($ms);
    echo "end $key\n";
});
$elapsed = (hrtime(true) - $start) / 1e6;
echo "returned after every callback, concurrently: ", var_export($elapsed < 55, true), "\n";
?>
--EXPECT--
start a in its own coroutine: true
start b in its own coroutine: true
start c in its own coroutine: true
end b
end c
end a
returned after every callback, concurrently: true
