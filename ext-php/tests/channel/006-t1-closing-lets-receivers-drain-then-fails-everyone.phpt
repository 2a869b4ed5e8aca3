--TEST--
Rule T1: close() fails waiting senders at once and every later send; receivers take what is buffered, then get ChannelException with the reason EXPLICIT; closing again does nothing
--FILE--
<?php
$ch = new Async\Channel(3);
$ch->send(1);
$ch->send(2);
$waiting = new Async\Channel();
$sender = Async\spawn(function () use ($waiting) {
    try {
        $waiting->send("x");
    } catch (Async\ChannelException $e) {
        echo "waiting sender: ", $e->getMessage(), " (", $e->reason->name, ")\n";
    }
});
Async\delay(5);
$waiting->close();
Async\await($sender);

$ch->close();
$ch->close();
var_dump($ch->isClosed());
try {
    $ch->send(3);
} catch (Async\ChannelException $e) {
    echo "send after close: ", $e->getMessage(), "\n";
}
echo $ch->recv(), " ", $ch->recv(), "\n";
try {
    $ch->recv();
} catch (Async\ChannelException $e) {
    echo get_class($e), " extends ", get_parent_class($e), ": ", $e->getMessage(), ", ", $e->reason->value, "\n";
    var_dump($e->reason === Async\ChannelCloseReason::EXPLICIT);
}
$idle = new Async\Channel();
$r = Async\spawn(function () use ($idle) {
    try {
        $idle->recv();
    } catch (Async\ChannelException $e) {
        echo "waiting receiver: ", $e->getMessage(), "\n";
    }
});
Async\delay(5);
$idle->close();
Async\await($r);
?>
--EXPECT--
waiting sender: Channel is closed (EXPLICIT)
bool(true)
send after close: Channel is closed
1 2
Async\ChannelException extends Async\AsyncException: Channel is closed, explicit
bool(true)
waiting receiver: Channel is closed
