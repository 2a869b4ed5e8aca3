--TEST--
Rule C7: cancelling a completed coroutine does nothing
--FILE--
<?php
$c = Async\spawn(fn() => "done");
Async\await($c);
$c->cancel();
var_dump($c->isCancelled(), $c->isCancellationRequested(), Async\await($c));
?>
--EXPECT--
bool(false)
bool(false)
string(4) "done"
