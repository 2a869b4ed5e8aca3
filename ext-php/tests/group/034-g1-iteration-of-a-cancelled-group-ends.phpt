--TEST--
Rule G1: iterating a cancelled group yields every task's CancellationError and ends
--FILE--
<?php
$g = new Async\TaskGroup();
for ($i = 0; $i < 3; $i++) $g->spawn(fn() => Async\delay(60000));
Async\suspend();
$g->cancel(new Async\CancellationError("stop"));
$n = 0;
foreach ($g as $k => [$r, $e]) { $n++; echo "$k: ", $e->getMessage(), "\n"; }
var_dump($n);
?>
--EXPECT--
0: stop
1: stop
2: stop
int(3)
