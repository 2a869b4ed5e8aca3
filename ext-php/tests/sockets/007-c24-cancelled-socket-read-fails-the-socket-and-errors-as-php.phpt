--TEST--
Rules C18 and C24: a cancelled socket_read fails as PHP reports a failed read (false, a warning with ECANCELED) and leaves the socket failed, as after a connection reset, so that no later read takes the reply it waited for; a refused socket_connect warns as PHP's
--EXTENSIONS--
sockets
--FILE--
<?php
use function Async\spawn;
use function Async\await;

socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
[$a, $b] = $pair;
$reader = spawn(function () use ($a) {
    $r = socket_read($a, 10);
    echo "socket_read returned ", var_export($r, true), ", last error ", socket_last_error($a) === 125 ? "ECANCELED" : socket_last_error($a), "\n";
});
spawn(function () use ($reader) { Async\delay(10); $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
// The reply the cancelled read waited for comes too late: nobody gets it.
var_dump(@socket_write($b, "stale reply"));
var_dump(socket_read($a, 100));
var_dump(socket_read($b, 100));

// A connect to a port nobody listens on.
$l = socket_create_listen(0);
socket_getsockname($l, $addr, $port);
socket_close($l);
await(spawn(function () use ($port) {
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    var_dump(socket_connect($s, '127.0.0.1', $port), socket_last_error($s) === SOCKET_ECONNREFUSED);
}));
?>
--EXPECTF--
Warning: socket_read(): unable to read from socket [%d]: Operation canceled in %s on line %d
socket_read returned false, last error ECANCELED
await: cancelled
bool(false)
string(0) ""
string(0) ""

Warning: socket_connect(): unable to connect [%d]: Connection refused in %s on line %d
bool(false)
bool(true)
