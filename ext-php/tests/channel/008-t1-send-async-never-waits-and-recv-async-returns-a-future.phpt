--TEST--
Rule T1: sendAsync() never waits (true when the value was taken, buffered or, on a rendezvous channel, parked for the next receiver); recvAsync() returns a Future that waits in line with the receivers and that cancel() withdraws
--FILE--
<?php
$ch = new Async\Channel(2);
var_dump($ch->sendAsync('a'), $ch->sendAsync('b'), $ch->sendAsync('c'));
echo $ch->recv(), $ch->recv(), "\n";

$r = new Async\Channel();
var_dump($r->sendAsync(1), $r->sendAsync(2), count($r));
echo $r->recv(), "\n";

$f1 = $r->recvAsync();
$f2 = $r->recvAsync();
var_dump($f1 instanceof Async\Future, $f1->isCompleted());
Async\spawn(function () use ($r) { $r->send("first"); $r->send("second"); });
echo Async\await($f1), " ", $f2->await(), "\n";

$f3 = $r->recvAsync();
$f3->cancel();
var_dump($f3->isCancelled());
Async\spawn(fn () => $r->send("after the withdrawn one"));
echo $r->recv(), "\n";

$r->close();
try {
    $r->recvAsync()->await();
} catch (Async\ChannelException $e) {
    echo "closed: ", $e->getMessage(), "\n";
}
var_dump($r->sendAsync("x"));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
ab
bool(true)
bool(false)
int(1)
1
bool(true)
bool(false)
first second
bool(true)
after the withdrawn one
closed: Channel is closed
bool(false)
