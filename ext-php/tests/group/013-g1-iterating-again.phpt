--TEST--
Rule G1: a group can be iterated again (from its first completed task); getIterator() gives the same sequence
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(fn() => 'x');
$g->spawn(fn() => 'y');
foreach ($g as $k => [$r]) echo "$k:$r ";
echo "\n";
foreach ($g as $k => [$r]) echo "$k:$r ";
echo "\n";
$it = $g->getIterator();
var_dump($it instanceof Iterator);
foreach ($it as $k => [$r, $e]) echo "$k:$r:", var_export($e, true), " ";
echo "\n";
var_dump(iterator_to_array($g, true) == [0 => ['x', null], 1 => ['y', null]]);
?>
--EXPECT--
0:x 1:y 
0:x 1:y 
bool(true)
0:x:NULL 1:y:NULL 
bool(true)
