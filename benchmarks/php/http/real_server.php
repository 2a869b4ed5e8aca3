<?php
// The keep-alive server of server.php written the way hand-written PHP
// servers and frameworks are (issue 24): the request line and the headers
// are parsed into an array, a Content-Length body is read, "Connection:
// close" (and HTTP/1.0 without keep-alive) ends the connection after the
// response, every connection has an idle timeout (stream_set_timeout 30 s),
// and the accept loop waits at most 1 s per stream_socket_accept() call.
// One coroutine per connection, blocking-style fread/fwrite.
//
//   php -d extension=async.so real_server.php PORT
//
// Runs until killed. Its AMPHP v2 counterpart is amp_real_server.php.
declare(strict_types=1);

use function Async\spawn;

$port = (int) ($argv[1] ?? 8080);

$context = stream_context_create(['socket' => ['backlog' => 4096, 'tcp_nodelay' => true]]);
$server = stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr,
    STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
if ($server === false) {
    fwrite(STDERR, "real_server.php: cannot listen on $port: $errstr\n");
    exit(1);
}

/** The request's method, target, version, headers (lower-case names) and body. */
function handle(array $request): string
{
    $body = "Hello, World!";
    return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " . strlen($body) . "\r\n"
        . ($request['close'] ? "Connection: close\r\n" : '') . "\r\n" . $body;
}

$serve = static function ($conn): void {
    stream_set_timeout($conn, 30);
    $buffer = '';
    while (true) {
        // The head: the request line and the headers.
        while (($end = strpos($buffer, "\r\n\r\n")) === false) {
            $data = fread($conn, 65536);
            if ($data === false || $data === '') {
                break 2;  // closed, or idle for 30 s
            }
            $buffer .= $data;
        }
        $lines = explode("\r\n", substr($buffer, 0, $end));
        $buffer = substr($buffer, $end + 4);
        $parts = explode(' ', array_shift($lines), 3);
        if (count($parts) !== 3) {
            fwrite($conn, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            break;
        }
        [$method, $target, $version] = $parts;
        $headers = [];
        foreach ($lines as $line) {
            $colon = strpos($line, ':');
            if ($colon !== false) {
                $headers[strtolower(substr($line, 0, $colon))] = trim(substr($line, $colon + 1));
            }
        }
        // The body, when there is one.
        $length = (int) ($headers['content-length'] ?? 0);
        while (strlen($buffer) < $length) {
            $data = fread($conn, 65536);
            if ($data === false || $data === '') {
                break 2;
            }
            $buffer .= $data;
        }
        $body = (string) substr($buffer, 0, $length);
        $buffer = (string) substr($buffer, $length);
        $connection = strtolower($headers['connection'] ?? '');
        $close = $connection === 'close' || ($version === 'HTTP/1.0' && $connection !== 'keep-alive');
        $response = handle(['method' => $method, 'target' => $target, 'version' => $version,
            'headers' => $headers, 'body' => $body, 'close' => $close]);
        if (fwrite($conn, $response) === false || $close) {
            break;
        }
    }
    fclose($conn);
};

while (true) {
    $conn = @stream_socket_accept($server, 1.0);
    if ($conn !== false) {
        spawn($serve, $conn);
    }
}
