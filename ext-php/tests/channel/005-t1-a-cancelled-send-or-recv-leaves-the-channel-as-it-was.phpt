--TEST--
Rule T1: a send() or recv() ended by its cancellation token or by the cancellation of its coroutine takes nothing and delivers nothing; the next receiver gets the next value
--FILE--
<?php
$ch = new Async\Channel();
try {
    $ch->recv(Async\timeout(10));
} catch (Async\AwaitCancelledException $e) {
    echo "recv: ", get_class($e), "\n";
}
try {
    $ch->send("never delivered", Async\timeout(10));
} catch (Async\AsyncCancellation $e) {
    echo "send: ", get_class($e), "\n";
}
$r = Async\spawn(fn () => $ch->recv());
Async\delay(5);
$r->cancel();
Async\delay(5);
echo "receiver cancelled: ", var_export($r->isCancelled(), true), "\n";
$s = Async\spawn(fn () => $ch->send("lost?"));
echo "the value went to the next receiver: ", $ch->recv(), "\n";
Async\await($s);

$s2 = Async\spawn(fn () => $ch->send("withdrawn"));
Async\delay(5);
$s2->cancel();
Async\delay(5);
echo "sender cancelled: ", var_export($s2->isCancelled(), true), ", count ", count($ch), "\n";
Async\spawn(fn () => $ch->send("fresh"));
echo "next value: ", $ch->recv(), "\n";
?>
--EXPECT--
recv: Async\AwaitCancelledException
send: Async\AwaitCancelledException
receiver cancelled: true
the value went to the next receiver: lost?
sender cancelled: true, count 0
next value: fresh
