--TEST--
Rule T1: noProducerTimeout closes a channel whose receivers waited that long for a value, noConsumerTimeout one whose senders waited that long, each with its reason; with hardTimeouts the timers keep the program alive
--FILE--
<?php
$ch = new Async\Channel(0, 20, 0, true);
try {
    $ch->recv();
} catch (Async\ChannelException $e) {
    echo $e->getMessage(), " / ", $e->reason->name, " / closed: ", var_export($ch->isClosed(), true), "\n";
}
$ch2 = new Async\Channel(0, 0, 20, true);
try {
    $ch2->send("nobody takes it");
} catch (Async\ChannelException $e) {
    echo $e->getMessage(), " / ", $e->reason->name, "\n";
}
$ch3 = new Async\Channel(0, 400, 0, true);
Async\spawn(function () use ($ch3) {
    for ($i = 0; $i < 3; $i++) {
        Async\delay(150);
        $ch3->send($i);
    }
});
for ($i = 0; $i < 3; $i++) {
    echo "kept open by values: ", $ch3->recv(), "\n";
}
?>
--EXPECT--
Channel deadlock: no producers / NO_PRODUCERS / closed: true
Channel deadlock: no consumers / NO_CONSUMERS
kept open by values: 0
kept open by values: 1
kept open by values: 2
