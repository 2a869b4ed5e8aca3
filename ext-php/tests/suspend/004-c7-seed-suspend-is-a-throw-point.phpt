--TEST--
Rule C7/C9 (seed 001): suspend() is where the cancellation is thrown; catch (Exception) does not catch it
--DESCRIPTION--
Seed 001 expects "Caught exception: cancelled at ..." from a catch (Exception)
block. Rule C9 says CancellationError extends \Error, not \Exception, so that
block does not catch it: the coroutine ends as cancelled (rule C7) and prints
nothing more. Following docs/rules.md.
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;

function example(string $name): void {
    echo "Hello, $name!\n";

    try {
        suspend();
    } catch (Exception $e) {
        echo "Caught exception: ", $e->getMessage();
    }

    echo "Goodbye, $name!\n";
}

$coroutine = spawn('example', 'World');

// pass control to the coroutine
suspend();

$coroutine->cancel();
echo "cancelled: ";
var_dump($coroutine->isCancellationRequested());
?>
--EXPECT--
Hello, World!
cancelled: bool(true)
