--TEST--
Rule C18: sockets made non-blocking with socket_set_nonblock never suspend: socket_read, socket_recv, socket_accept and socket_connect return at once as in PHP, and no other coroutine runs meanwhile
--EXTENSIONS--
sockets
--FILE--
<?php
use function Async\spawn;
use function Async\await;

await(spawn(function () {
    $ran = false;
    spawn(function () use (&$ran) { $ran = true; });

    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
    [$a, $b] = $pair;
    socket_set_nonblock($a);
    var_dump(socket_read($a, 10), socket_last_error() === SOCKET_EAGAIN);
    socket_clear_error();
    var_dump(socket_recv($a, $buf, 10, 0), $buf, socket_last_error() === SOCKET_EAGAIN);
    socket_clear_error();

    $listener = socket_create_listen(0);
    socket_set_nonblock($listener);
    var_dump(socket_accept($listener), socket_last_error() === SOCKET_EAGAIN);
    socket_clear_error();

    socket_getsockname($listener, $addr, $port);
    $c = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_set_nonblock($c);
    $r = socket_connect($c, '127.0.0.1', $port);
    var_dump($r === true || socket_last_error() === SOCKET_EINPROGRESS);

    echo "another coroutine ran meanwhile: ", var_export($ran, true), "\n";
    socket_write($b, "data");
    Async\delay(1);
    echo "after a suspension: ", var_export($ran, true), "\n";
    var_dump(socket_read($a, 10));
}));
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
NULL
bool(true)
bool(false)
bool(true)
bool(true)
another coroutine ran meanwhile: false
after a suspension: true
string(4) "data"
