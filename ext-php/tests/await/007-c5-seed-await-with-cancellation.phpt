--TEST--
Rule C5 (seed 001): await() throws AwaitCancelledException when the cancellation completes first
--DESCRIPTION--
The seed's cancellation is spawn(function() { sleep(2); }) and its task reads a
file; blocking sleep() is not made asynchronous yet (rule C18), so the
cancellation here is a coroutine that waits 20 ms with Async\delay(), and the
task takes longer than that. The seed's function readFile() collides with
PHP's readfile() (function names are case-insensitive); it is renamed.
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use Async\AwaitCancelledException;

function readFileSlowly(string $fileName): string
{
    Async\delay(2000);
    return "never";
}

$cancellation = spawn(function() {
    Async\delay(20);
});

try {
    // Wait for the coroutine to finish or for the cancellation to occur
    echo await($task = spawn(readFileSlowly(...), 'file1.txt'), $cancellation);
} catch (AwaitCancelledException $e) {
    echo "Caught exception: ", $e->getMessage(), "\n";
}
$task->cancel();
?>
--EXPECT--
Caught exception: Await was cancelled by its cancellation awaitable
