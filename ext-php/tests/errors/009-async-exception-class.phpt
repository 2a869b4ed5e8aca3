--TEST--
Rule C6: AsyncException is an \Exception; DeadlockError an \Error
--FILE--
<?php
var_dump(new Async\AsyncException("x") instanceof Exception);
var_dump(new Async\DeadlockError("x") instanceof Error);
var_dump((new ReflectionClass(Async\Timeout::class))->isFinal());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
