--TEST--
Rule C17: the garbage collector sees a coroutine's exception
--FILE--
<?php
class Boom extends Exception { public $co; }
$co = Async\spawn(function () use (&$co) { $e = new Boom("x"); $e->co = $co; throw $e; });
try { Async\await($co); } catch (Boom $e) {}
unset($co, $e);
var_dump(gc_collect_cycles() >= 2);
?>
--EXPECT--
bool(true)
