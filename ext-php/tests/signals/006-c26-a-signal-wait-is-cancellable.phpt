--TEST--
A signal wait ends with AwaitCancelledException when its cancellation awaitable completes first, and with the CancellationError when its coroutine is cancelled; the signal stays awaitable afterwards
--EXTENSIONS--
posix
--FILE--
<?php
try {
    Async\signal(SIGUSR1, Async\timeout(10));
} catch (Async\AwaitCancelledException $e) {
    echo get_class($e), "\n";
}

$waiter = Async\spawn(function () {
    try {
        Async\signal(SIGUSR1);
    } catch (Async\CancellationError $e) {
        echo "waiter: ", get_class($e), "\n";
        throw $e;
    }
});
Async\delay(5);
$waiter->cancel();
try {
    Async\await($waiter);
} catch (Async\CancellationError $e) {
    echo "await: ", get_class($e), "\n";
}
var_dump($waiter->isCancelled());

$again = Async\spawn(fn () => Async\signal(SIGUSR1, Async\timeout(5000)));
Async\spawn(function () { Async\delay(5); posix_kill(getmypid(), SIGUSR1); });
var_dump(Async\await($again));
?>
--EXPECT--
Async\AwaitCancelledException
waiter: Async\CancellationError
await: Async\CancellationError
bool(true)
int(10)
