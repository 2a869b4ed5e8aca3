--TEST--
Rule C4: a hundred coroutines await one; all get the same object
--FILE--
<?php
$obj = new stdClass;
$src = Async\spawn(function () use ($obj) { Async\delay(5); return $obj; });
$ws = [];
for ($i = 0; $i < 100; $i++) $ws[] = Async\spawn(fn() => Async\await($src));
$same = 0;
foreach ($ws as $w) if (Async\await($w) === $obj) $same++;
echo $same, "\n";
?>
--EXPECT--
100
