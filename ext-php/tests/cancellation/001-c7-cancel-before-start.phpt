--TEST--
Rule C7: a coroutine cancelled before it started never starts
--FILE--
<?php
$c = Async\spawn(function () { echo "never\n"; });
$c->cancel();
var_dump($c->isStarted(), $c->isCancelled(), $c->isCompleted(), $c->isQueued());
Async\suspend();
echo "done\n";
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(false)
done
