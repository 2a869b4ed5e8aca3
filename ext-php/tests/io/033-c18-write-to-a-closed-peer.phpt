--TEST--
Rule C18: writing to a peer that closed fails inside a coroutine with PHP's notice (Broken pipe)
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
await(spawn(function () use ($server) {
    $c = stream_socket_client("tcp://" . stream_socket_get_name($server, false));
    $peer = stream_socket_accept($server);
    fclose($peer);
    usleep(20000);
    var_dump(fwrite($c, "x"));  // sent; the peer answers with a reset
    usleep(20000);
    var_dump(fwrite($c, "x"));
    var_dump(fread($c, 10), feof($c));
}));
?>
--EXPECTF--
int(1)

Notice: fwrite(): Send of 1 bytes failed with errno=32 Broken pipe in %s on line %d
bool(false)
string(0) ""
bool(true)
