--TEST--
Rule C18: stream_socket_accept() with a timeout fails as PHP does when nobody connects; others run meanwhile
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
$acceptor = spawn(function () use ($server) { var_dump(stream_socket_accept($server, 0.1)); });
spawn(function () { echo "another coroutine runs while accept waits\n"; });
await($acceptor);
// A zero timeout polls, as in PHP.
var_dump(await(spawn(fn() => @stream_socket_accept($server, 0))));
?>
--EXPECTF--
another coroutine runs while accept waits

Warning: stream_socket_accept(): Accept failed: Connection timed out in %s on line %d
bool(false)
bool(false)
