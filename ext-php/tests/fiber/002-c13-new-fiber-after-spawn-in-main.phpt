--TEST--
Rule C13: new Fiber after the first spawn throws FiberError, in the main flow too
--FILE--
<?php
Async\spawn(fn() => 1);
try {
    new Fiber(fn() => 1);
} catch (FiberError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
FiberError: Cannot create a fiber while an True Async is active
