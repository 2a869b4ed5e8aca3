--TEST--
Rule C18: socket_recv() with MSG_WAITALL on a blocking stream socket returns once every byte asked for came, as a blocking recv() does (what came when the peer closed, false and a warning when it was cancelled), while the other coroutines run
--EXTENSIONS--
sockets
--FILE--
<?php
use function Async\spawn;
use function Async\await;

socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
[$a, $b] = $pair;
socket_set_option($a, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 5, 'usec' => 0]);
$reader = spawn(function () use ($a) {
    $n = socket_recv($a, $buf, 10, MSG_WAITALL);
    echo "MSG_WAITALL of 10: "; var_dump($n, $buf);
    $n = socket_recv($a, $buf, 10, MSG_WAITALL);
    echo "MSG_WAITALL of 10, the peer closing after 6: "; var_dump($n, $buf);
    $n = socket_recv($a, $buf, 10, MSG_WAITALL);
    echo "then: "; var_dump($n, $buf);
});
spawn(function () use ($b) {
    foreach (["abc", "defg", "hijklm", "nop"] as $part) {
        socket_write($b, $part);
        echo "sent $part\n";
        Async\delay(10);
    }
    socket_close($b);
});
await($reader);

socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
[$a, $b] = $pair;
socket_write($b, "abc");
$reader = spawn(function () use ($a) {
    $n = socket_recv($a, $buf, 10, MSG_WAITALL);
    echo "cancelled MSG_WAITALL: "; var_dump($n, $buf, socket_last_error($a) === 125 /* ECANCELED */);
});
spawn(function () use ($reader) { $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError) {
    echo "cancelled\n";
}
// C24: the connection is failed, the peer sees it closed.
var_dump(socket_read($b, 10));
?>
--EXPECTF--
sent abc
sent defg
sent hijklm
MSG_WAITALL of 10: int(10)
string(10) "abcdefghij"
sent nop
MSG_WAITALL of 10, the peer closing after 6: int(6)
string(6) "klmnop"
then: int(0)
NULL

Warning: socket_recv(): unable to read from socket [%d]: %s in %s on line %d
cancelled MSG_WAITALL: bool(false)
NULL
bool(true)
cancelled
string(0) ""
