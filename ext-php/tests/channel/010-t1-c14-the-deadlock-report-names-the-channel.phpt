--TEST--
Rules T1 and C14: a program whose coroutines all wait on a channel (its timeouts soft) meets the deadlock report, which names the channel and where it was created
--FILE--
<?php
$ch = new Async\Channel(1, 5000);
Async\spawn(function () use ($ch) {
    $ch->recv();
});
?>
--EXPECTF--
Warning: Deadlock detected: %s

Warning: Coroutine 1 spawned at %s:3 is suspended at %s:4, receiving from channel 1 (capacity 1) created at %s:2 in %s on line 4
%A
Fatal error: Uncaught Async\DeadlockError: %s
%A
