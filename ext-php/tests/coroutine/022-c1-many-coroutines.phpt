--TEST--
Rule C1/C2: ten thousand coroutines run and finish
--FILE--
<?php
$sum = 0;
$all = [];
for ($i = 0; $i < 10000; $i++) {
    $all[] = Async\spawn(function () use ($i, &$sum) { Async\suspend(); $sum += $i; return $i; });
}
$results = 0;
foreach ($all as $c) { $results += Async\await($c); }
var_dump($sum, $results);
?>
--EXPECT--
int(49995000)
int(49995000)
