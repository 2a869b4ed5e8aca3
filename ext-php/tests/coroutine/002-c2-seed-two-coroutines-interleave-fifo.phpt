--TEST--
Rule C2 (seed 001): two coroutines that suspend interleave in FIFO order
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;

function example(string $name): void {
    echo "Hello, $name!\n";
    suspend();
    echo "Goodbye, $name!\n";
}

spawn('example', 'World');
spawn('example', 'Universe');
?>
--EXPECT--
Hello, World!
Hello, Universe!
Goodbye, World!
Goodbye, Universe!
