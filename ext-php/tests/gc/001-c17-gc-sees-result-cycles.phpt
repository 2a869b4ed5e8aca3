--TEST--
Rule C17: the garbage collector sees a coroutine's result and collects cycles through it
--FILE--
<?php
class Node { public $co; }
$n = new Node;
$n->co = Async\spawn(fn() => $n);
Async\await($n->co);
unset($n);
var_dump(gc_collect_cycles() >= 2);
?>
--EXPECT--
bool(true)
