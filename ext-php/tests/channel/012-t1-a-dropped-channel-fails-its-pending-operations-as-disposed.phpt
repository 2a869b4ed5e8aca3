--TEST--
Rule T1: when the last reference to a channel goes, its pending receive Futures fail with ChannelException, reason DISPOSED, and the values it buffered are released
--FILE--
<?php
class Payload { function __destruct() { echo "payload released\n"; } }
$ch = new Async\Channel(2);
$ch->send(new Payload());
$pending = (new Async\Channel())->recvAsync();
unset($ch);
echo "channel dropped\n";
try {
    $pending->await();
} catch (Async\ChannelException $e) {
    echo $e->getMessage(), " (", $e->reason->name, ")\n";
}
?>
--EXPECT--
payload released
channel dropped
Channel disposed (DISPOSED)
