--TEST--
Rule C18: cancelling a coroutine blocked in stream_socket_accept() makes it fail with PHP's warning and false
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
$acceptor = spawn(function () use ($server) {
    var_dump(stream_socket_accept($server, 30));
    echo "accept returned\n";
});
spawn(function () use ($acceptor) { $acceptor->cancel(); });
try {
    await($acceptor);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
?>
--EXPECTF--
Warning: stream_socket_accept(): Accept failed: Operation canceled in %s on line %d
bool(false)
accept returned
await: cancelled
