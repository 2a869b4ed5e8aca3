<?php
// The server of server.php on AMPHP v2 (Debian's php-amphp-amp): its event
// loop (Amp\Loop, the NativeDriver over stream_select() when no loop
// extension is loaded) calls back on readable sockets; streams are
// non-blocking, and each readable connection gets one fread() and one
// fwrite(): how an AMPHP v2 server that skips the promise layer is written.
//
//   php amp_server.php PORT [delay]
//
// With "delay", every response waits for a 1 ms timer (Loop::delay), the
// counterpart of server.php's Async\delay(1). Runs until killed.
declare(strict_types=1);

// Debian's autoloader covers the classes; the function files are loaded as
// composer's "files" section would.
require '/usr/share/php/Amp/autoload.php';
require_once '/usr/share/php/Amp/functions.php';
require_once '/usr/share/php/Amp/Internal/functions.php';

use Amp\Loop;

const RESPONSE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";

$port = (int) ($argv[1] ?? 8080);
$withDelay = ($argv[2] ?? '') === 'delay';

$context = stream_context_create(['socket' => ['backlog' => 4096, 'tcp_nodelay' => true]]);
$server = stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr,
    STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
if ($server === false) {
    fwrite(STDERR, "amp_server.php: cannot listen on $port: $errstr\n");
    exit(1);
}
stream_set_blocking($server, false);

Loop::run(static function () use ($server, $withDelay): void {
    Loop::onReadable($server, static function (string $watcher, $server) use ($withDelay): void {
        $conn = @stream_socket_accept($server, 0);
        if ($conn === false) {
            return;
        }
        stream_set_blocking($conn, false);
        stream_set_read_buffer($conn, 0);
        $buffer = '';
        Loop::onReadable($conn, static function (string $watcher, $conn) use (&$buffer, $withDelay): void {
            $data = @fread($conn, 65536);
            if ($data === false || ($data === '' && feof($conn))) {
                Loop::cancel($watcher);
                fclose($conn);
                return;
            }
            $buffer .= $data;
            $n = 0;
            while (($end = strpos($buffer, "\r\n\r\n")) !== false) {
                $buffer = (string) substr($buffer, $end + 4);
                $n++;
            }
            if ($n === 0) {
                return;
            }
            $out = str_repeat(RESPONSE, $n);
            if ($withDelay) {
                Loop::delay(1, static function () use ($conn, $out): void {
                    if (is_resource($conn)) {
                        @fwrite($conn, $out);
                    }
                });
            } else {
                @fwrite($conn, $out);
            }
        });
    });
});
