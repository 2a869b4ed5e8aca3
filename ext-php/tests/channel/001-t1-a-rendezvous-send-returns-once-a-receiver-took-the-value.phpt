--TEST--
Rule T1: on a channel of capacity 0 send() returns only once a receiver took the value, and recv() waits for a sender
--FILE--
<?php
$ch = new Async\Channel();
$sender = Async\spawn(function () use ($ch) {
    echo "sender: before send\n";
    $ch->send("hello");
    echo "sender: send returned\n";
});
Async\delay(10);
echo "main: the sender still waits: ", $sender->isCompleted() ? "no" : "yes", "\n";
echo "main: received ", $ch->recv(), "\n";
Async\await($sender);

$receiver = Async\spawn(function () use ($ch) {
    echo "receiver: got " . $ch->recv() . "\n";
});
Async\delay(10);
echo "main: sending\n";
$ch->send("world");
Async\await($receiver);
?>
--EXPECT--
sender: before send
main: the sender still waits: yes
main: received hello
sender: send returned
main: sending
receiver: got world
