--TEST--
Rule C11: handlers run after any kind of completion: cancelled, failed and awaited, or cancelled before it started
--FILE--
<?php
$never = Async\spawn(fn() => 1);
$never->onFinally(fn($c) => print("never started: cancelled=" . var_export($c->isCancelled(), true) . "\n"));
$never->cancel();
$failing = Async\spawn(function () { throw new Exception("x"); });
$failing->onFinally(fn($c) => print("failed: " . $c->getException()->getMessage() . "\n"));
try { Async\await($failing); } catch (Exception) {}
Async\suspend();
?>
--EXPECT--
never started: cancelled=true
failed: x
