--TEST--
Rule C13 (seed 001): new Fiber inside a coroutine throws FiberError
--FILE--
<?php
use function Async\spawn;

spawn(function() {
    // This will throw FiberError
    $fiber = new Fiber(function() {
        echo "This won't work\n";
    });
});
?>
--EXPECTF--
Fatal error: Uncaught FiberError: Cannot create a fiber while an True Async is active in %s:6
Stack trace:
#0 %s(6): Fiber->__construct(Object(Closure))
#1 [internal function]: {closure}()
#2 {main}
  thrown in %s on line 6
