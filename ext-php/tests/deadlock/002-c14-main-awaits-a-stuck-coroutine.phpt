--TEST--
Rule C14: the main flow awaiting a coroutine that waits forever is cancelled; the DeadlockError ends the script
--DESCRIPTION--
The main flow takes part in the deadlock. Like every waiting coroutine it
is cancelled (graceful shutdown, C15); the cancellation ends it quietly (C3,
C7) and the DeadlockError is reported when the script ends, pointing at
where the main flow waited.
--FILE--
<?php
$main = Async\currentCoroutine();
$c = Async\spawn(function () use ($main) { Async\await($main); });
try {
    Async\await($c);
} finally {
    echo "main flow: finally runs\n";
}
echo "not reached\n";
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: The main coroutine is suspended at %s:5, awaiting coroutine 1 in %s on line %d

Warning: Coroutine 1 spawned at %s:3 is suspended at %s:3, awaiting coroutine 0 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 1 active, 0 zombie
  coroutine 0 (main): suspended at %s:5, awaiting coroutine 1
  coroutine 1 spawned at %s:3: suspended at %s:3, awaiting coroutine 0 in %s on line %d
main flow: finally runs

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:5
Stack trace:
#0 {main}
  thrown in %s on line 5
