--TEST--
Rule C13: a script that does not use the async API keeps working Fibers
--FILE--
<?php
$fibers = [];
for ($i = 0; $i < 3; $i++) {
    $fibers[] = $f = new Fiber(function (int $n) { $x = Fiber::suspend($n * 10); return $x + $n; });
    echo $f->start($i), "\n";
}
foreach ($fibers as $i => $f) { $f->resume(100); echo $f->getReturn(), "\n"; }
var_dump(Async\getCoroutines());
?>
--EXPECT--
0
10
20
100
101
102
array(0) {
}
