--TEST--
Rule C11: onFinally() needs a callable
--FILE--
<?php
$c = Async\spawn(fn() => 1);
try { $c->onFinally("nope"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { $c->finally(null); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
Async\Coroutine::onFinally(): Argument #1 ($callback) must be a valid callback, function "nope" not found or invalid function name
Async\Coroutine::finally(): Argument #1 ($callback) must be a valid callback, no array or string given
