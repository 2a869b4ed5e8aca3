--TEST--
Rule S15: a coroutine still running a zombie timeout after graceful shutdown cancelled it is reported as stuck
--INI--
async.zombie_coroutine_timeout=0.03
--FILE--
<?php
Async\spawn(function () {
    try {
        Async\delay(60000);
    } finally {
        Async\protect(fn() => Async\delay(100));   // cleanup that takes long
        echo "cleanup finished\n";
    }
});
Async\suspend();
Async\gracefulShutdown();
?>
--EXPECTF--
Warning: Coroutine %d spawned at %s:2 (graceful shutdown) is stuck while being cancelled: suspended at %s:6, delay, %s left in %s on line %d
cleanup finished
