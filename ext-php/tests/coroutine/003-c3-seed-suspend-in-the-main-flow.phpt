--TEST--
Rule C3 (seed 001): suspend() works in the main flow
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;

function example(string $name): void {
    echo "Hello, $name!";
    suspend();
    echo "Goodbye, $name!";
}

$coroutine = spawn(example(...), 'World');

// suspend the main flow
suspend();

echo "Back to the main flow";
?>
--EXPECT--
Hello, World!Back to the main flowGoodbye, World!
