--TEST--
Rule C1: spawn() returns an Async\Coroutine that is queued, not started
--FILE--
<?php
$c = Async\spawn(fn() => 1);
var_dump($c instanceof Async\Coroutine, $c instanceof Async\FutureLike, $c instanceof Async\Awaitable);
var_dump($c->isQueued(), $c->isStarted(), $c->isRunning(), $c->isCompleted());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
