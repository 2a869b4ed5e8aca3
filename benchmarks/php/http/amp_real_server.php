<?php
// real_server.php on AMPHP v2 (Debian's php-amphp-amp; the NativeDriver
// over stream_select() when no loop extension is loaded), written the
// fastest way v2 allows (callbacks on readable sockets, non-blocking
// unbuffered streams, no promises): the same parsing of the request line
// and headers into an array, Content-Length bodies, "Connection: close",
// and a 30 s idle timeout per connection, kept the way AMPHP's HTTP server
// keeps it: a deadline per connection refreshed on every read, and one
// timer that closes the connections whose deadline passed (once a second).
//
//   php amp_real_server.php PORT
//
// Runs until killed.
declare(strict_types=1);

require '/usr/share/php/Amp/autoload.php';
require_once '/usr/share/php/Amp/functions.php';
require_once '/usr/share/php/Amp/Internal/functions.php';

use Amp\Loop;

const IDLE_TIMEOUT_MS = 30000;

$port = (int) ($argv[1] ?? 8080);

$context = stream_context_create(['socket' => ['backlog' => 4096, 'tcp_nodelay' => true]]);
$server = stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr,
    STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
if ($server === false) {
    fwrite(STDERR, "amp_real_server.php: cannot listen on $port: $errstr\n");
    exit(1);
}
stream_set_blocking($server, false);

/** The request's method, target, version, headers (lower-case names) and body. */
function handle(array $request): string
{
    $body = "Hello, World!";
    return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " . strlen($body) . "\r\n"
        . ($request['close'] ? "Connection: close\r\n" : '') . "\r\n" . $body;
}

/** Connection id => [stream, watcher, deadline in ms]. */
$connections = [];

function close_connection(int $id): void
{
    global $connections;
    [$conn, $watcher] = $connections[$id];
    unset($connections[$id]);
    Loop::cancel($watcher);
    fclose($conn);
}

Loop::run(static function () use ($server): void {
    // The idle timeout: one timer for every connection.
    Loop::repeat(1000, static function (): void {
        global $connections;
        $now = Loop::now();
        foreach ($connections as $id => [, , $deadline]) {
            if ($deadline <= $now) {
                close_connection($id);
            }
        }
    });
    Loop::onReadable($server, static function (string $watcher, $server): void {
        global $connections;
        $conn = @stream_socket_accept($server, 0);
        if ($conn === false) {
            return;
        }
        stream_set_blocking($conn, false);
        stream_set_read_buffer($conn, 0);
        $id = (int) $conn;
        $buffer = '';
        $request = null;   // the head parsed, waiting for its body
        $watcher = Loop::onReadable($conn, static function (string $watcher, $conn) use ($id, &$buffer, &$request): void {
            global $connections;
            $data = @fread($conn, 65536);
            if ($data === false || ($data === '' && feof($conn))) {
                close_connection($id);
                return;
            }
            $connections[$id][2] = Loop::now() + IDLE_TIMEOUT_MS;
            $buffer .= $data;
            $out = '';
            $close = false;
            while (true) {
                if ($request === null) {
                    if (($end = strpos($buffer, "\r\n\r\n")) === false) {
                        break;
                    }
                    $lines = explode("\r\n", substr($buffer, 0, $end));
                    $buffer = substr($buffer, $end + 4);
                    $parts = explode(' ', array_shift($lines), 3);
                    if (count($parts) !== 3) {
                        $out .= "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
                        $close = true;
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
                    $request = ['method' => $method, 'target' => $target, 'version' => $version,
                        'headers' => $headers, 'length' => (int) ($headers['content-length'] ?? 0)];
                }
                if (strlen($buffer) < $request['length']) {
                    break;  // the body is still coming
                }
                $request['body'] = (string) substr($buffer, 0, $request['length']);
                $buffer = (string) substr($buffer, $request['length']);
                $connection = strtolower($request['headers']['connection'] ?? '');
                $request['close'] = $connection === 'close'
                    || ($request['version'] === 'HTTP/1.0' && $connection !== 'keep-alive');
                $out .= handle($request);
                $close = $request['close'];
                $request = null;
                if ($close) {
                    break;
                }
            }
            if ($out !== '') {
                @fwrite($conn, $out);
            }
            if ($close) {
                close_connection($id);
            }
        });
        $connections[$id] = [$conn, $watcher, Loop::now() + IDLE_TIMEOUT_MS];
    });
});
