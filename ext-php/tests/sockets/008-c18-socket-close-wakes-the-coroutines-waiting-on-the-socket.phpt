--TEST--
Rule C18: socket_close() of a socket another coroutine waits on (socket_read, socket_recv) wakes that coroutine: its call fails with EBADF, as a read of a closed socket does, instead of waiting for data that can no longer come
--EXTENSIONS--
sockets
--FILE--
<?php
use function Async\spawn;
use function Async\await;

foreach (['socket_read' => fn($s) => socket_read($s, 10),
          'socket_recv' => fn($s) => socket_recv($s, $buf, 10, 0)] as $name => $call) {
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
    [$a, $b] = $pair;
    // Without the wake-up the read would end only here, after 5 s, silently.
    socket_set_option($a, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 5, 'usec' => 0]);
    $reader = spawn(function () use ($a, $call, $name) {
        $r = $call($a);
        echo "blocked $name returned "; var_dump($r);
        var_dump(socket_last_error() === SOCKET_EBADF);
    });
    $closer = spawn(function () use ($a) {
        echo "closing\n";
        socket_close($a);
        echo "closed\n";
    });
    await($closer);
    await($reader);
    // The peer sees the connection closed.
    var_dump(socket_read($b, 10));
}
?>
--EXPECTF--
closing
closed

Warning: socket_read(): unable to read from socket [%d]: %s in %s on line %d
blocked socket_read returned bool(false)
bool(true)
string(0) ""
closing
closed

Warning: socket_recv(): unable to read from socket [%d]: %s in %s on line %d
blocked socket_recv returned bool(false)
bool(true)
string(0) ""
