--TEST--
Rule C18: cancelling a coroutine blocked in a connect makes stream_socket_client() fail with PHP's warning; the cancellation is thrown next
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip Linux drops SYNs to a full accept queue'); ?>
--FILE--
<?php
use function Async\spawn;
use function Async\await;

// A listener whose accept queue is full: the kernel drops further SYNs,
// so a connect to it waits (Linux).
$ctx = stream_context_create(['socket' => ['backlog' => 0]]);
$server = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
$address = stream_socket_get_name($server, false);
$fill = [];
for ($i = 0; $i < 4; $i++) {
    $fill[] = stream_socket_client("tcp://$address", $errno, $errstr, 1, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
}
$client = spawn(function () use ($address) {
    var_dump(stream_socket_client("tcp://$address", $errno, $errstr, 30), $errstr);
    Async\delay(1);
    echo "not reached\n";
});
spawn(function () use ($client) { $client->cancel(); });
try {
    await($client);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
?>
--EXPECTF--
Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Operation canceled) in %s on line %d
bool(false)
string(18) "Operation canceled"
await: cancelled
