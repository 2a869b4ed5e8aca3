--TEST--
Rule C10: a coroutine waiting in await or delay is suspended, not queued
--FILE--
<?php
$c = Async\spawn(fn() => Async\delay(20));
Async\suspend();
var_dump($c->isSuspended(), $c->isQueued(), $c->isRunning(), $c->isStarted());
Async\await($c);
var_dump($c->isSuspended(), $c->isCompleted());
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
