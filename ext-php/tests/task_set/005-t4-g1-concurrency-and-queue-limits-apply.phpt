--TEST--
Rules T4 and G1: a TaskSet runs at most $concurrency tasks at once, holds the rest in spawn order, and delivers results as a stream while new tasks are spawned
--FILE--
<?php
$set = new Async\TaskSet(concurrency: 2);
$running = 0;
$peak = 0;
$producer = Async\spawn(function () use ($set, &$running, &$peak) {
    for ($i = 1; $i <= 6; $i++) {
        $set->spawn(function () use ($i, &$running, &$peak) {
            $running++;
            $peak = max($peak, $running);
            Async\delay(5);
            $running--;
            return $i;
        });
    }
    $set->close();
});
$got = [];
foreach ($set as [$result]) {
    $got[] = $result;
}
Async\await($producer);
echo implode(",", $got), " peak $peak\n";
?>
--EXPECT--
1,2,3,4,5,6 peak 2
