--TEST--
Rule C13: currentCoroutine() also counts as using True Async
--FILE--
<?php
Async\currentCoroutine();
try { new Fiber(fn() => 1); } catch (FiberError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
Cannot create a fiber while an True Async is active
