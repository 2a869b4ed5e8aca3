--TEST--
Rule C15: an exception that ends the main flow is reported by PHP and starts graceful shutdown: the coroutines are cancelled
--FILE--
<?php
Async\spawn(function () {
    try { Async\delay(60000); } finally { echo "coroutine cancelled, finally runs\n"; }
});
Async\suspend();
throw new LogicException("main failed");
?>
--EXPECTF--
Fatal error: Uncaught LogicException: main failed in %s:6
Stack trace:
#0 {main}
  thrown in %s on line 6
coroutine cancelled, finally runs
