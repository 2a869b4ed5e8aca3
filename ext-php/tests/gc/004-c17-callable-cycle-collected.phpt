--TEST--
Rule C17: a cycle through a coroutine's callable is collected once the coroutine is done
--FILE--
<?php
class Holder { public $co; public $fn; }
$h = new Holder;
$h->fn = function () use ($h) { return 1; };
$h->co = Async\spawn($h->fn);
Async\await($h->co);
unset($h);
var_dump(gc_collect_cycles() > 0);
?>
--EXPECT--
bool(true)
