--TEST--
Rules T3 and C14: a coroutine waiting to acquire while nothing can release is a deadlock, whose report names the pool and where it was created
--FILE--
<?php
$pool = new Async\Pool(fn () => 1, max: 1);
$held = $pool->acquire();
$pool->acquire();
?>
--EXPECTF--
Warning: Deadlock detected: %s

Warning: The main coroutine is suspended at %s:4, acquiring from pool 1 (1 of 1 resources) created at %s:2 in %s on line 4
%A
Fatal error: Uncaught Async\DeadlockError: %s
%A
