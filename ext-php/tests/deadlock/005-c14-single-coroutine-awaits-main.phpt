--TEST--
Rule C14: a coroutine awaiting the main coroutine after the script ended is a deadlock
--FILE--
<?php
$main = Async\currentCoroutine();
Async\spawn(function () use ($main) { Async\await($main); });
echo "script ends\n";
?>
--EXPECTF--
script ends

Warning: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s on line %d

Warning: Coroutine 1 spawned at %s:3 is suspended at %s:3, awaiting coroutine 0 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 1 active, 0 zombie
  coroutine 0 (main): waiting for the end of the program
  coroutine 1 spawned at %s:3: suspended at %s:3, awaiting coroutine 0 in %s on line %d

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s:3
Stack trace:
#0 {main}
  thrown in %s on line 3
