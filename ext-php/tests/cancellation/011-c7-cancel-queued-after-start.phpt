--TEST--
Rule C7: a coroutine that yielded and is cancelled while queued gets the cancellation when it resumes
--FILE--
<?php
$c = Async\spawn(function () {
    echo "started\n";
    try {
        Async\suspend();
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "cancelled while queued\n";
    }
});
Async\suspend();
var_dump($c->isQueued());
$c->cancel();
var_dump($c->isCancellationRequested(), $c->isCompleted());
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "it ends cancelled though it caught the cancellation\n";
}
?>
--EXPECT--
started
bool(true)
bool(true)
bool(false)
cancelled while queued
it ends cancelled though it caught the cancellation
