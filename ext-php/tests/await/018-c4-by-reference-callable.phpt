--TEST--
Rule C1: spawn() passes arguments by value; a by-reference parameter gets a copy with a warning
--FILE--
<?php
function addOne(array &$list) { $list[] = 1; return count($list); }
$data = [];
echo Async\await(Async\spawn('addOne', $data)), "\n";
var_dump($data);
$counter = 0;
echo Async\await(Async\spawn(function () use (&$counter) { return ++$counter; })), " ", $counter, "\n";
?>
--EXPECTF--
Warning: addOne(): Argument #1 ($list) must be passed by reference, value given in %s on line %d
1
array(0) {
}
1 1
