--TEST--
Rule C14: on a deadlock the waiting coroutines are cancelled, so their finally blocks run
--FILE--
<?php
$a = Async\spawn(function () use (&$b) {
    try { Async\suspend(); Async\await($b); } finally { echo "a cleans up\n"; }
});
$b = Async\spawn(function () use ($a) {
    try { Async\suspend(); Async\await($a); } catch (Async\CancellationError $e) { echo "b cancelled\n"; throw $e; }
});
register_shutdown_function(function () use ($a, $b) {
    echo "shutdown: ", $a->isCancelled() ? "a cancelled" : "a not cancelled", ", ", $b->isCancelled() ? "b cancelled" : "b not cancelled", "\n";
});
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: Coroutine 1 spawned at %s is suspended at %s, awaiting coroutine 2 in %s on line %d

Warning: Coroutine 2 spawned at %s is suspended at %s, awaiting coroutine 1 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 2 active, 0 zombie
  coroutine 0 (main): waiting for the end of the program
  coroutine 1 spawned at %s:%d: suspended at %s:%d, awaiting coroutine 2
  coroutine 2 spawned at %s:%d: suspended at %s:%d, awaiting coroutine 1 in %s on line %d
a cleans up
b cancelled

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:%d
Stack trace:
#0 {main}
  thrown in %s on line %d
shutdown: a cancelled, b cancelled
