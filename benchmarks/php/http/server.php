<?php
// HTTP/1.1 keep-alive server in plain PHP on the runtime: one coroutine per
// connection, blocking-style fread/fwrite (the runtime suspends the
// coroutine instead of the process), the same fixed small response as the
// other servers of this benchmark.
//
//   php -d extension=async.so server.php PORT [delay]
//
// With "delay", every request awaits Async\delay(1) before its response:
// the shape of a handler that awaits I/O (a database, a cache).
// The server runs until it is killed.
declare(strict_types=1);

use function Async\delay;
use function Async\spawn;

const RESPONSE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";

$port = (int) ($argv[1] ?? 8080);
$withDelay = ($argv[2] ?? '') === 'delay';

$context = stream_context_create(['socket' => ['backlog' => 4096, 'tcp_nodelay' => true]]);
$server = stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr,
    STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
if ($server === false) {
    fwrite(STDERR, "server.php: cannot listen on $port: $errstr\n");
    exit(1);
}

$serve = static function ($conn) use ($withDelay): void {
    $buffer = '';
    while (($data = fread($conn, 65536)) !== false && $data !== '') {
        $buffer .= $data;
        $out = '';
        // Every complete request (a GET: no body) gets its response.
        while (($end = strpos($buffer, "\r\n\r\n")) !== false) {
            $buffer = (string) substr($buffer, $end + 4);
            if ($withDelay) {
                delay(1);
            }
            $out .= RESPONSE;
        }
        if ($out !== '' && fwrite($conn, $out) === false) {
            break;
        }
    }
    fclose($conn);
};

while (true) {
    $conn = @stream_socket_accept($server, -1);
    if ($conn !== false) {
        spawn($serve, $conn);
    }
}
