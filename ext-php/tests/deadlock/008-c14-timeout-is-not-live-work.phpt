--TEST--
Rule C14: a Timeout nobody awaits does not keep the program alive, so coroutines that only wait for each other are still a deadlock
--FILE--
<?php
$unused = Async\timeout(60000);
$a = Async\spawn(function () use (&$b) { Async\suspend(); Async\await($b); });
$b = Async\spawn(function () use ($a) { Async\suspend(); Async\await($a); });
?>
--EXPECTF--
Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d
%A
Fatal error: Uncaught Async\DeadlockError: %s
Stack trace:
#0 {main}
  thrown in %s on line %d
