--TEST--
Rule C18: STREAM_CLIENT_ASYNC_CONNECT returns at once; stream_select() for writability waits for the connection
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
$address = stream_socket_get_name($server, false);
await(spawn(function () use ($server, $address) {
    $c = stream_socket_client("tcp://$address", $errno, $errstr, 5, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
    var_dump(is_resource($c));
    $r = null; $w = [$c]; $e = null;
    var_dump(stream_select($r, $w, $e, 5));
    $peer = stream_socket_accept($server, 5);
    fwrite($c, "over async connect\n");
    echo fgets($peer);
}));
?>
--EXPECT--
bool(true)
int(1)
over async connect
