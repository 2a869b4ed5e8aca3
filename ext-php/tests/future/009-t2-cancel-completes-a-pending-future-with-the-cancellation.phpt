--TEST--
Rule T2: cancel() completes a pending future with a CancellationError (or the one given): its awaiters get it, isCancelled() says so, the state's later complete() throws; cancelling a completed future changes nothing
--FILE--
<?php
$state = new Async\FutureState();
$future = new Async\Future($state);
$reader = Async\spawn(function () use ($future) {
    try {
        $future->await();
    } catch (Async\CancellationError $e) {
        echo "reader: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
Async\delay(5);
$future->cancel(new Async\CancellationError("no longer needed"));
Async\await($reader);
var_dump($future->isCancelled(), $future->isCompleted());
try {
    $state->complete(1);
} catch (Async\AsyncException $e) {
    echo "complete after cancel: AsyncException\n";
}
$done = Async\Future::completed("kept");
$done->cancel();
var_dump($done->isCancelled(), $done->await());
$plain = new Async\Future(new Async\FutureState());
$plain->cancel();
try {
    $plain->await();
} catch (Async\CancellationError $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
reader: Async\CancellationError: no longer needed
bool(true)
bool(true)
complete after cancel: AsyncException
bool(false)
string(4) "kept"
Async\CancellationError
