--TEST--
Rule C21: a thousand concurrent delays all fire
--FILE--
<?php
$order = [];
$cs = [];
for ($i = 0; $i < 1000; $i++) {
    $ms = ($i * 7) % 50;
    $cs[] = Async\spawn(function () use ($ms, &$order) { Async\delay($ms); $order[] = $ms; });
}
foreach ($cs as $c) Async\await($c);
var_dump(count($order), array_sum($order) === array_sum(array_map(fn($i) => ($i * 7) % 50, range(0, 999))));
?>
--EXPECT--
int(1000)
bool(true)
