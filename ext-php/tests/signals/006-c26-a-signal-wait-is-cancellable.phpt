--TEST--
A signal's Future fails with AwaitCancelledException when its cancellation awaitable completes first (at once when it completed already), its awaiter ends with the CancellationError when it is cancelled, and cancel() ends the wait; the signal stays awaitable afterwards
--EXTENSIONS--
posix
--FILE--
<?php
try {
    Async\await(Async\signal(SIGUSR1, Async\timeout(10)));
} catch (Async\AwaitCancelledException $e) {
    echo get_class($e), "\n";
}
$expired = Async\timeout(1);
Async\delay(5);
$late = Async\signal(SIGUSR1, $expired);
var_dump($late->isCompleted());
$f = Async\signal(SIGUSR1);
$f->cancel();
var_dump($f->isCancelled());

$waiter = Async\spawn(function () {
    try {
        Async\await(Async\signal(SIGUSR1));
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

$again = Async\spawn(fn () => Async\await(Async\signal(SIGUSR1, Async\timeout(5000)))->value);
Async\spawn(function () { Async\delay(5); posix_kill(getmypid(), SIGUSR1); });
var_dump(Async\await($again));
?>
--EXPECT--
Async\AwaitCancelledException
bool(true)
bool(true)
waiter: Async\CancellationError
await: Async\CancellationError
bool(true)
int(10)
