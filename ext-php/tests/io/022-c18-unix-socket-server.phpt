--TEST--
Rule C18: a unix:// server and client in coroutines
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$path = sys_get_temp_dir() . "/tasync-io-" . getmypid() . "-" . mt_rand() . ".sock";
$server = stream_socket_server("unix://$path");
$srv = spawn(function () use ($server) {
    $conn = stream_socket_accept($server, 5);
    $line = fgets($conn);
    echo "server read: $line";
    fwrite($conn, "pong\n");
    fclose($conn);
});
$client = spawn(function () use ($path) {
    $c = stream_socket_client("unix://$path", $errno, $errstr, 5);
    fwrite($c, "ping\n");
    $line = fgets($c);
    echo "client read: $line";
    var_dump(fgets($c));
});
await($client);
await($srv);
fclose($server);
unlink($path);
?>
--EXPECT--
server read: ping
client read: pong
bool(false)
