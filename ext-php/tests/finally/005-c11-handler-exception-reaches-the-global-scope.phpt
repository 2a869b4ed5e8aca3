--TEST--
Rule C11/S10: a handler is a coroutine like any other: its unhandled exception reaches the global scope
--FILE--
<?php
$c = Async\spawn(fn() => 1);
$c->onFinally(function () { throw new RuntimeException("handler failed"); });
Async\await($c);
Async\suspend();
echo "main goes on\n";
?>
--EXPECTF--
Fatal error: Uncaught RuntimeException: handler failed in %s:3
Stack trace:
#0 [internal function]: {closure}(Object(Async\Coroutine))
#1 {main}
  thrown in %s on line 3
