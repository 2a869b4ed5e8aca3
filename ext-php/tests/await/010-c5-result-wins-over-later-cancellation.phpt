--TEST--
Rule C5: a coroutine that completes before the cancellation gives its result
--FILE--
<?php
$task = Async\spawn(fn() => "fast");
echo Async\await($task, Async\timeout(1000)), "\n";
$slow = Async\spawn(function () { Async\delay(10); return "before the timeout"; });
echo Async\await($slow, Async\spawn(fn() => Async\delay(500))), "\n";
?>
--EXPECT--
fast
before the timeout
