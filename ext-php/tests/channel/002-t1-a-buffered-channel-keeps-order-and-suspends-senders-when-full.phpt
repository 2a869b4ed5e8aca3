--TEST--
Rule T1: a buffered channel keeps its values in order, accepts sends without waiting while it has room, and suspends a sender while it is full
--FILE--
<?php
$ch = new Async\Channel(2);
$ch->send(1);
$ch->send(2);
echo "two sent without waiting, count ", count($ch), "\n";
$sender = Async\spawn(function () use ($ch) {
    $ch->send(3);
    echo "third send returned\n";
});
Async\delay(10);
echo "full: ", var_export($ch->isFull(), true), ", the sender waits: ", var_export(!$sender->isCompleted(), true), "\n";
echo $ch->recv(), "\n";
Async\await($sender);
echo $ch->recv(), " ", $ch->recv(), "\n";
echo "empty: ", var_export($ch->isEmpty(), true), "\n";
?>
--EXPECT--
two sent without waiting, count 2
full: true, the sender waits: true
1
third send returned
2 3
empty: true
