--TEST--
Rule C1 (seed 001): a coroutine that suspends is resumed before the script ends
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;

spawn(function() {
    echo "Start";
    suspend();  // Suspend the coroutine
    echo "Resumed";
});
?>
--EXPECT--
StartResumed
