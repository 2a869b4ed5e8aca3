--TEST--
Rule C18: connecting to a closed port fails inside a coroutine as PHP fails: false, the warning, errno and errstr
--FILE--
<?php
use function Async\spawn;
use function Async\await;

// A port nobody listens on: bind one, then close it.
$probe = stream_socket_server("tcp://127.0.0.1:0");
$address = stream_socket_get_name($probe, false);
fclose($probe);
[, $port] = explode(":", $address);

await(spawn(function () use ($address, $port) {
    var_dump(stream_socket_client("tcp://$address", $errno, $errstr, 5));
    var_dump($errno > 0, $errstr);
    var_dump(@fsockopen("127.0.0.1", (int) $port, $errno, $errstr, 5), $errstr);
    var_dump(fsockopen("tcp://127.0.0.1", (int) $port));
}));
?>
--EXPECTF--
Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection refused) in %s on line %d
bool(false)
bool(true)
string(18) "Connection refused"
bool(false)
string(18) "Connection refused"

Warning: fsockopen(): Unable to connect to tcp://127.0.0.1:%d (Connection refused) in %s on line %d
bool(false)
