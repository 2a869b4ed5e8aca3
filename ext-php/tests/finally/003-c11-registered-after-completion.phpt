--TEST--
Rule C11: registering on a completed coroutine still runs the handler (queued at once)
--FILE--
<?php
$c = Async\spawn(fn() => 1);
Async\await($c);
$c->onFinally(function ($co) { echo "late handler, completed: ", var_export($co->isCompleted(), true), "\n"; });
echo "registered\n";
Async\suspend();
?>
--EXPECT--
registered
late handler, completed: true
