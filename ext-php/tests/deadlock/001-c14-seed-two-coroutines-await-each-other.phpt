--TEST--
Rule C14 (seed 001): two coroutines awaiting each other: warnings, then a fatal DeadlockError
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\suspend;

$coroutine1 = spawn(function() use (&$coroutine2) {
    suspend();
    await($coroutine2); // Waits for coroutine2
});

$coroutine2 = spawn(function() use ($coroutine1) {
    suspend();
    await($coroutine1); // Waits for coroutine1 - deadlock!
});
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: Coroutine 1 spawned at %s:6 is suspended at %s:8, awaiting coroutine 2 in %s on line %d

Warning: Coroutine 2 spawned at %s:11 is suspended at %s:13, awaiting coroutine 1 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 2 active, 0 zombie
  coroutine 0 (main): waiting for the end of the program
  coroutine 1 spawned at %s:%d: suspended at %s:%d, awaiting coroutine 2
  coroutine 2 spawned at %s:%d: suspended at %s:%d, awaiting coroutine 1 in %s on line %d

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:8
Stack trace:
#0 {main}
  thrown in %s on line 8
