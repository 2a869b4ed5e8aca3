--TEST--
Rule C7: the first cancellation wins; later ones are ignored
--FILE--
<?php
$c = Async\spawn(fn() => Async\delay(1000));
Async\suspend();
$c->cancel(new Async\CancellationError("first"));
$c->cancel(new Async\CancellationError("second"));
try { Async\await($c); } catch (Async\CancellationError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
first
