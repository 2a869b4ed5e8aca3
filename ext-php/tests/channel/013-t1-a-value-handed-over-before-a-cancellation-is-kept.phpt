--TEST--
Rule T1: a receiver that was handed a value keeps it even when its coroutine is cancelled before it runs again; the cancellation reaches it at its next suspension
--FILE--
<?php
$ch = new Async\Channel();
$receiver = Async\spawn(function () use ($ch) {
    $v = $ch->recv();
    echo "received: $v\n";
    try {
        Async\suspend();
    } catch (Async\CancellationError $e) {
        echo "then cancelled at the next suspension\n";
        throw $e;
    }
});
Async\delay(5);
$ch->send("handed over");
$receiver->cancel();
try {
    Async\await($receiver);
} catch (Async\CancellationError) {
}
var_dump(count($ch));
?>
--EXPECT--
received: handed over
then cancelled at the next suspension
int(0)
