--TEST--
Rule C7: getException() of a cancelled coroutine is its CancellationError
--FILE--
<?php
$c = Async\spawn(fn() => Async\delay(1000));
Async\suspend();
$c->cancel();
Async\suspend();
$e = $c->getException();
echo get_class($e), "\n";
var_dump($c->getResult(), $c->isCancelled(), $c->isCancellationRequested());
?>
--EXPECT--
Async\CancellationError
NULL
bool(true)
bool(true)
