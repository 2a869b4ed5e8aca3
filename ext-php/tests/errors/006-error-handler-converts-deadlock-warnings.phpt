--TEST--
Rule C14: deadlock warnings go through set_error_handler(); the main flow is cancelled
--DESCRIPTION--
The core warns once per line of its report (head, each waiting coroutine,
then the tree), cancels every waiting coroutine (the main flow gets a
CancellationError at its await) and keeps the DeadlockError, which is
reported at the end of the script.
--FILE--
<?php
set_error_handler(function ($no, $str) { echo "handler: ", strtok($str, "\n"), "\n"; return true; });
$main = Async\currentCoroutine();
$c = Async\spawn(function () use ($main) { Async\await($main); });
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
echo "main goes on\n";
?>
--EXPECTF--
handler: Deadlock detected: no active coroutines, 2 coroutines in waiting
handler: The main coroutine is suspended at %s:6, awaiting coroutine 1
handler: Coroutine 1 spawned at %s:4 is suspended at %s:4, awaiting coroutine 0
handler: Coroutines and scopes at the deadlock:
Async\CancellationError: Graceful shutdown: Deadlock detected: no active coroutines, 2 coroutines in waiting
main goes on

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:6
Stack trace:
#0 {main}
  thrown in %s on line 6
