--TEST--
Rule C14/C19: a deadlock inside a shutdown function cancels it quietly; the DeadlockError is reported at the end
--FILE--
<?php
register_shutdown_function(function () {
    $main = Async\currentCoroutine();
    $c = Async\spawn(fn() => Async\await($main));
    try {
        Async\await($c);
    } finally {
        echo "first shutdown function ends\n";
    }
});
register_shutdown_function(function () { echo "second shutdown function\n"; });
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: The main coroutine is suspended at %s:6, awaiting coroutine 1 in %s on line %d

Warning: Coroutine 1 spawned at %s:4 is suspended at %s:4, awaiting coroutine 0 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 1 active, 0 zombie
  coroutine 0 (main): suspended at %s:6, awaiting coroutine 1
  coroutine 1 spawned at %s:4: suspended at %s:4, awaiting coroutine 0 in %s on line %d
first shutdown function ends
second shutdown function

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:6
Stack trace:
#0 {main}
  thrown in %s on line 6
