--TEST--
Rule C21: concurrent delays finish in about the longest one, not the sum
--FILE--
<?php
$t = hrtime(true);
$cs = [];
foreach ([50, 30, 40, 20] as $ms) {
    $cs[] = Async\spawn(function () use ($ms) { Async\delay($ms); echo "$ms "; });
}
foreach ($cs as $c) Async\await($c);
$elapsed = (hrtime(true) - $t) / 1e6;
echo "\n", $elapsed < 130 ? "concurrent" : "sequential ($elapsed ms)", "\n";
?>
--EXPECT--
20 30 40 50 
concurrent
