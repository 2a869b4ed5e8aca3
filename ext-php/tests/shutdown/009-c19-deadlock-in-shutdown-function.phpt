--TEST--
Rule C14/C19: a deadlock inside a shutdown function is reported there
--FILE--
<?php
register_shutdown_function(function () {
    $main = Async\currentCoroutine();
    $c = Async\spawn(fn() => Async\await($main));
    try {
        Async\await($c);
    } catch (Async\DeadlockError $e) {
        echo "caught: ", $e->getMessage(), "\n";
    }
});
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: The main coroutine is suspended at %s in %s on line %d

Warning: Coroutine 1 spawned at %s is suspended at %s in %s on line %d
caught: Deadlock detected: no active coroutines, 2 coroutines in waiting
