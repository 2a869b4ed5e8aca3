--TEST--
Rule C14: deadlock warnings go through set_error_handler() in the main flow
--FILE--
<?php
set_error_handler(function ($no, $str) { echo "handler: $str\n"; return true; });
$main = Async\currentCoroutine();
$c = Async\spawn(function () use ($main) { Async\await($main); });
try {
    Async\await($c);
} catch (Async\DeadlockError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
handler: Deadlock detected: no active coroutines, 2 coroutines in waiting
handler: The main coroutine is suspended at %s:6
handler: Coroutine 1 spawned at %s:4 is suspended at %s:4
Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting
