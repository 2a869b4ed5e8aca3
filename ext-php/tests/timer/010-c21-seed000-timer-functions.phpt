--TEST--
Rule C21 (seed 000, "Timer functions"): delay() suspends; timeout() bounds an await, which throws AwaitCancelledException
--DESCRIPTION--
The seed fetches https://php.net/ with a misspelt file_get_content; a
coroutine that waits longer than the timeout stands for the slow download.
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\timeout;
use function Async\delay;

try {
    delay(10); // suspends the coroutine
    // Try to fetch data within the timeout
    echo await(spawn(fn() => delay(60000)), timeout(10));
} catch (\Async\AwaitCancelledException) {
    echo "Operation was cancelled by timeout\n";
} catch (\Async\CancellationError) {
    echo "Operation was cancelled by user\n";
}
foreach (Async\getCoroutines() as $c) if ($c !== Async\currentCoroutine()) $c->cancel();
?>
--EXPECT--
Operation was cancelled by timeout
