--TEST--
Rule T1: foreach over a channel receives each value once, in order, suspending between values, and ends when the channel is closed and drained; competing consumers share the values
--FILE--
<?php
$ch = new Async\Channel(1);
Async\spawn(function () use ($ch) {
    foreach (['a', 'b', 'c'] as $v) {
        $ch->send($v);
        Async\delay(2);
    }
    $ch->close();
});
foreach ($ch as $i => $v) {
    echo "$i => $v\n";
}
echo "loop ended\n";

$jobs = new Async\Channel(10);
$seen = [];
$workers = [];
foreach (['A', 'B'] as $name) {
    $workers[] = Async\spawn(function () use ($jobs, $name, &$seen) {
        foreach ($jobs as $job) {
            $seen[] = $job;
            Async\delay(1);
        }
    });
}
for ($i = 1; $i <= 6; $i++) {
    $jobs->send($i);
}
$jobs->close();
Async\await_all($workers);
sort($seen);
echo implode(",", $seen), "\n";
try {
    foreach ($jobs as &$byRef) {}
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
0 => a
1 => b
2 => c
loop ended
1,2,3,4,5,6
Cannot iterate channel by reference
