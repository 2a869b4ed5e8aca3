--TEST--
Rule T1: a value sent to a waiting receiver is that receiver's at once: a coroutine that comes later but runs first gets nothing of it (no barging), and a place a receive frees in a full buffer goes to the first waiting sender
--FILE--
<?php
$ch = new Async\Channel(0);
$waiter = Async\spawn(function () use ($ch) {
    echo "waiter got " . $ch->recv() . "\n";
});
Async\delay(5);
$ch->send("for the waiter");
// The waiter has not run yet; a try from here finds nothing to take.
var_dump($ch->sendAsync("second") ? "parked" : "refused");
$late = Async\spawn(function () use ($ch) {
    echo "late got " . $ch->recv() . "\n";
});
Async\await_all([$waiter, $late]);

$full = new Async\Channel(1);
$full->send("a");
$blocked = Async\spawn(function () use ($full) { $full->send("b"); echo "b is in\n"; });
Async\delay(5);
echo "took ", $full->recv(), "\n";
// The freed place was filled by the waiting sender's value at once.
var_dump($full->sendAsync("c"));
Async\await($blocked);
echo "then ", $full->recv(), "\n";
?>
--EXPECT--
string(6) "parked"
waiter got for the waiter
late got second
took a
bool(false)
b is in
then b
