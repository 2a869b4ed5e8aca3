--TEST--
Rule C21: concurrent delays finish in deadline order
--FILE--
<?php
$cs = [];
foreach ([50, 30, 40, 20] as $ms) {
    $cs[] = Async\spawn(function () use ($ms) { Async\delay($ms); echo "$ms "; });
}
foreach ($cs as $c) Async\await($c);
echo "\n";
?>
--EXPECT--
20 30 40 50 
