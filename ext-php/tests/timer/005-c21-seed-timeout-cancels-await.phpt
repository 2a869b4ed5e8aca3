--TEST--
Rule C21 (seed 000): await() bounded by timeout() throws AwaitCancelledException
--DESCRIPTION--
The seed awaits spawn('file_get_content', 'https://php.net/'); there is no
network here and the name is misspelled in the seed, so the task is a
coroutine that takes longer than the timeout.
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\timeout;
use function Async\delay;

try {
    delay(10); // suspends the coroutine

    echo await(spawn(function () { delay(5000); return "page"; }), timeout(20));
} catch (\Async\AwaitCancelledException) {
    echo "Operation was cancelled by timeout\n";
} catch (\Async\CancellationError) {
    echo "Operation was cancelled by user\n";
}
foreach (Async\getCoroutines() as $c) $c->cancel();
?>
--EXPECT--
Operation was cancelled by timeout
