--TEST--
Rule C21: delay() suspends only the caller; others run meanwhile
--FILE--
<?php
$c = Async\spawn(function () { echo "other runs\n"; });
$t = hrtime(true);
Async\delay(30);
$ms = (hrtime(true) - $t) / 1e6;
echo $ms >= 29 ? "waited\n" : "too short: $ms\n";
?>
--EXPECT--
other runs
waited
