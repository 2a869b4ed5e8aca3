--TEST--
Rule C18: many coroutines cancelled in sleep(): each sleep fails once, the next one throws, for every coroutine
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$coroutines = [];
$outcomes = [];
for ($i = 0; $i < 60; $i++) {
    $coroutines[] = spawn(function () use (&$outcomes) {
        $first = sleep(30);
        try {
            sleep(30);
            $outcomes[] = "second sleep returned";
        } catch (Async\CancellationError $e) {
            $outcomes[] = $first > 0 ? "failed once, then thrown" : "first sleep did not fail";
            throw $e;
        }
    });
}
Async\delay(1);
foreach ($coroutines as $c) $c->cancel();
$cancelled = 0;
foreach ($coroutines as $c) {
    try {
        await($c);
    } catch (Async\CancellationError $e) {
        $cancelled++;
    }
}
print_r(array_count_values($outcomes));
echo "$cancelled coroutines ended cancelled\n";
?>
--EXPECT--
Array
(
    [failed once, then thrown] => 60
)
60 coroutines ended cancelled
