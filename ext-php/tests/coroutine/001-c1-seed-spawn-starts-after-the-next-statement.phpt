--TEST--
Rule C1 (seed 001): spawn() queues the coroutine, the next statement runs first
--DESCRIPTION--
Seed 001 prints "Hello, World / Next line / Goodbye, World" for this example,
which contradicts rule C1 (a spawned coroutine starts only when the spawner
suspends). Following docs/rules.md, "Next line" comes first.
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;

function myFunction(): void {
    echo "Hello, World!\n";
    suspend();
    echo "Goodbye, World!\n";
}

spawn(myFunction(...));
echo "Next line\n";
?>
--EXPECT--
Next line
Hello, World!
Goodbye, World!
