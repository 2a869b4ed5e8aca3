--TEST--
Rule C14: a deadlock through awaitCompletion(): the report says which scope is awaited
--DESCRIPTION--
A Timeout as the cancellation would keep the program alive (it bounds the
wait): that is not a deadlock.
--FILE--
<?php
$scope = new Async\Scope();
$main = Async\currentCoroutine();
$scope->spawn(function () use ($main) { Async\await($main); });
// A cancellation that never completes (a race over an empty task group):
// a Timeout would be live work, and bound the wait instead.
$scope->awaitCompletion((new Async\TaskGroup())->race());
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: The main coroutine is suspended at %s:7, awaiting the scope created at %s:2 in %s on line %d

Warning: Coroutine 1 spawned at %s:4 is suspended at %s:4, awaiting coroutine 0 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 0 active, 0 zombie
  coroutine 0 (main): suspended at %s:7, awaiting the scope created at %s:2
  scope %d created at %s:7: 0 active, 0 zombie
scope %d created at %s:2: 1 active, 0 zombie
  coroutine 1 spawned at %s:4: suspended at %s:4, awaiting coroutine 0 in %s on line %d

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:7
Stack trace:
#0 {main}
  thrown in %s on line 7
