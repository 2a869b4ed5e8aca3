--TEST--
Rule C14: the main flow awaiting a coroutine that waits forever gets the DeadlockError
--FILE--
<?php
$main = Async\currentCoroutine();
$c = Async\spawn(function () use ($main) { Async\await($main); });
Async\await($c);
echo "not reached\n";
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: The main coroutine is suspended at %s:4 in %s on line %d

Warning: Coroutine 1 spawned at %s:3 is suspended at %s:3 in %s on line %d

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:4
Stack trace:
#0 %s(4): Async\await(Object(Async\Coroutine))
#1 {main}
  thrown in %s on line 4
