--TEST--
A server drains on SIGTERM: a coroutine awaiting Async\signal(SIGTERM) stops the acceptor, the requests in flight finish, and the process exits with status 0
--DESCRIPTION--
The server runs as a process of its own, so that its exit status is seen.
One coroutine serves (an acceptor and a coroutine per connection), one
awaits SIGTERM, and a third, a client, sends SIGTERM to the process while
its request is in flight.
--EXTENSIONS--
posix
--FILE--
<?php
$file = __DIR__ . '/009-server.php';
file_put_contents($file, <<<'PHP'
<?php
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
$address = stream_socket_get_name($server, false);
$requests = new Async\Scope();

$acceptor = Async\spawn(function () use ($server, $requests) {
    while (($conn = @stream_socket_accept($server, 30)) !== false) {
        $requests->spawn(function () use ($conn) {
            $request = trim(fgets($conn));
            echo "server: working on $request\n";
            Async\delay(100);   // still in flight when SIGTERM arrives
            fwrite($conn, "done: $request\n");
            fclose($conn);
            echo "server: finished $request\n";
        });
    }
});

$drain = Async\spawn(function () use ($acceptor, $requests, $server) {
    $signo = Async\await(Async\signal(SIGTERM))->value;
    echo "drain: got signal $signo, no new connections\n";
    $acceptor->cancel();
    $requests->awaitCompletion(Async\timeout(10000));
    fclose($server);
    echo "drain: every request finished\n";
});

Async\spawn(function () use ($address) {
    $client = stream_socket_client("tcp://$address");
    fwrite($client, "request-1\n");
    Async\delay(20);
    echo "client: sending SIGTERM\n";
    posix_kill(getmypid(), SIGTERM);
    $reply = fgets($client);
    echo "client: $reply";
});
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$output = [];
exec("$php $args " . (str_contains($args, 'posix') ? '' : '-d extension=posix') . ' ' . escapeshellarg($file) . ' 2>&1', $output, $status);
echo implode("\n", $output), "\n";
echo "exit status: $status\n";
?>
--CLEAN--
<?php
@unlink(__DIR__ . '/009-server.php');
?>
--EXPECT--
server: working on request-1
client: sending SIGTERM
drain: got signal 15, no new connections
server: finished request-1
drain: every request finished
client: done: request-1
exit status: 0
