--TEST--
Rules C3 and C18: socket_read, socket_recv and socket_accept in the main flow wait for server and client coroutines of the same process instead of blocking it
--EXTENSIONS--
sockets
--FILE--
<?php
use function Async\spawn;

$listener = socket_create_listen(0);
socket_getsockname($listener, $addr, $port);
spawn(function () use ($listener) {
    $c = socket_accept($listener);
    $line = socket_read($c, 100, PHP_NORMAL_READ);
    $rest = socket_read($c, 4);
    Async\delay(50);
    socket_write($c, "server got: " . json_encode([$line, $rest]));
    socket_close($c);
});

$s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
socket_set_option($s, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 10, 'usec' => 0]);
socket_connect($s, '127.0.0.1', $port);
// A line read in two parts: PHP_NORMAL_READ waits for the whole line.
socket_write($s, "hel");
spawn(function () use ($s) { Async\delay(20); socket_write($s, "lo\nrest"); });
var_dump(socket_read($s, 100));
var_dump(socket_recv($s, $buf, 100, 0), $buf);

// The main flow accepts a connection a coroutine makes.
spawn(function () use ($port) {
    $c = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_connect($c, '127.0.0.1', $port);
    socket_write($c, "from a coroutine\n");
    socket_close($c);
});
$c = socket_accept($listener);
var_dump(socket_read($c, 100, PHP_NORMAL_READ));
?>
--EXPECT--
string(30) "server got: ["hello\n","rest"]"
int(0)
NULL
string(17) "from a coroutine
"
