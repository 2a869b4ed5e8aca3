--TEST--
Rule T5: a Traversable is walked lazily, with its keys: the next element is taken only when a callback may start for it
--FILE--
<?php
function tasks(): Generator {
    for ($i = 1; $i <= 3; $i++) {
        echo "yield task-$i\n";
        yield "task-$i" => $i;
    }
}
Async\iterate(tasks(), function (int $value, string $key) {
    echo "$key: start\n";
    Async\delay(1);
    echo "$key: done\n";
}, concurrency: 1);
Async\iterate(new ArrayIterator(['k' => 'v']), function ($v, $k) { echo "$k => $v\n"; });
?>
--EXPECT--
yield task-1
task-1: start
task-1: done
yield task-2
task-2: start
task-2: done
yield task-3
task-3: start
task-3: done
k => v
