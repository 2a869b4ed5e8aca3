--TEST--
Rule T1: coroutines waiting to receive are served in the order they began to wait, and so are coroutines waiting to send
--FILE--
<?php
$ch = new Async\Channel();
$receivers = [];
foreach (['A', 'B', 'C'] as $name) {
    $receivers[] = Async\spawn(function () use ($ch, $name) {
        echo "$name got " . $ch->recv() . "\n";
    });
    Async\delay(2);
}
foreach ([1, 2, 3] as $v) {
    $ch->send($v);
}
Async\await_all($receivers);

$senders = [];
foreach (['x', 'y', 'z'] as $v) {
    $senders[] = Async\spawn(function () use ($ch, $v) { $ch->send($v); });
    Async\delay(2);
}
echo $ch->recv(), $ch->recv(), $ch->recv(), "\n";
Async\await_all($senders);
?>
--EXPECT--
A got 1
B got 2
C got 3
xyz
