--TEST--
Rule C18: stream_socket_client() and fsockopen() with a host name resolve it on the thread pool and try its addresses in order
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
[, $port] = explode(":", stream_socket_get_name($server, false));
$client = spawn(function () use ($port) {
    $a = stream_socket_client("tcp://localhost:$port", $errno, $errstr, 5);
    echo "connected\n";
    $b = fsockopen("localhost", (int) $port, $errno, $errstr, 5);
    fwrite($a, "via stream_socket_client\n");
    fwrite($b, "via fsockopen\n");
    return [$a, $b];
});
spawn(function () { echo "another coroutine runs during the lookup\n"; });
$conns = await($client);
$x = stream_socket_accept($server, 5);
$y = stream_socket_accept($server, 5);
echo fgets($x), fgets($y);
?>
--EXPECT--
another coroutine runs during the lookup
connected
via stream_socket_client
via fsockopen
