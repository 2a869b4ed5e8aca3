--TEST--
Rule T5: coroutines the callbacks spawned run in iterate()'s scope: with cancelPending (the default) they are cancelled when the callbacks ended, and iterate() returns once they finished; without it iterate() waits for them
--FILE--
<?php
Async\iterate([1, 2, 3], function (int $value) {
    Async\spawn(function () use ($value) {
        try {
            echo "background $value started\n";
            Async\delay(1000);
            echo "background $value finished\n";
        } catch (Async\CancellationError) {
            echo "background $value cancelled\n";
        }
    });
});
echo "iteration finished\n";
$results = [];
Async\iterate([1, 2, 3], function (int $value) use (&$results) {
    Async\spawn(function () use (&$results, $value) {
        Async\delay(5);
        $results[] = "result-$value";
    });
}, cancelPending: false);
sort($results);
echo implode(", ", $results), "\n";
?>
--EXPECT--
background 1 started
background 2 started
background 3 started
background 1 cancelled
background 2 cancelled
background 3 cancelled
iteration finished
result-1, result-2, result-3
