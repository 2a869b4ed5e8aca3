--TEST--
Rule C18: UDP: stream_socket_recvfrom() and fread() wait in a coroutine while another sends
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("udp://127.0.0.1:0", $errno, $errstr, STREAM_SERVER_BIND);
$address = stream_socket_get_name($server, false);
$receiver = spawn(function () use ($server) {
    $msg = stream_socket_recvfrom($server, 100, 0, $peer);
    echo "recvfrom: $msg\n";
    var_dump(str_starts_with($peer, "127.0.0.1:"));
    echo "fread: ", fread($server, 100), "\n";
});
spawn(function () use ($address) {
    echo "sender runs\n";
    $c = stream_socket_client("udp://$address");
    fwrite($c, "first datagram");
    Async\delay(20);
    fwrite($c, "second datagram");
});
await($receiver);
?>
--EXPECT--
sender runs
recvfrom: first datagram
bool(true)
fread: second datagram
