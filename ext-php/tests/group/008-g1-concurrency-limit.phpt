--TEST--
Rule G1: with a concurrency limit, at most that many tasks run at once; held tasks start in spawn order as slots free
--FILE--
<?php
$g = new Async\TaskGroup(2);
$running = 0;
$max = 0;
for ($i = 1; $i <= 6; $i++) {
    $g->spawn(function () use ($i, &$running, &$max) {
        $running++;
        $max = max($max, $running);
        echo "start $i\n";
        Async\delay(5);
        $running--;
        return $i;
    });
}
var_dump(array_sum(Async\await($g->all())), $max);
?>
--EXPECT--
start 1
start 2
start 3
start 4
start 5
start 6
int(21)
int(2)
