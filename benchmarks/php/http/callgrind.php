<?php
// The keep-alive server of this folder (server.php) under callgrind: the
// instructions it executes per request, a figure that a busy machine does
// not change (bench.php's times need a quiet one).
//
//   php -n callgrind.php [--backends=uv,ev] [--connections=50] [--requests=100,300] BUILD_DIR
//
// For each backend the server runs twice under valgrind --tool=callgrind,
// while this script (plain PHP, no extension) keeps CONNECTIONS keep-alive
// connections busy: every round it writes one request on each and reads
// every response. The two runs make the two request counts per connection
// given; the instructions the second run executed beyond the first,
// divided by the requests it served beyond the first, are the cost of one
// request without the start and the end of the process. Printed per
// backend: Ir per request (callgrind's instruction count).
//
// Bounded: the server is killed (SIGTERM, which makes callgrind write its
// counts) after the client is done, or after 120 s without progress.
declare(strict_types=1);

const PORT = 18290;
const REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
const RESPONSE_END = "Hello, World!";

$given = getopt('', ['backends:', 'connections:', 'requests:'], $rest);
$opts = (is_array($given) ? $given : []) + ['backends' => 'uv,ev', 'connections' => '50', 'requests' => '100,300'];
$build = $argv[$rest] ?? null;
if ($build === null || count($argv) > $rest + 1 || !is_file("$build/ext-php/async.so")) {
    fwrite(STDERR, "usage: callgrind.php [--backends=uv,ev] [--connections=N] [--requests=LOW,HIGH] BUILD_DIR\n"
        . "  (a meson build directory with ext-php/async.so)\n");
    exit(2);
}
$build = realpath($build);
$conns = max(1, (int) $opts['connections']);
[$low, $high] = array_map('intval', explode(',', $opts['requests'])) + [1 => 0];
if ($low < 1 || $high <= $low) {
    fwrite(STDERR, "callgrind.php: --requests=LOW,HIGH with 0 < LOW < HIGH\n");
    exit(2);
}

/* Runs the server under callgrind for $rounds requests per connection and
 * returns the instructions it executed. */
function measure(string $build, string $backend, int $conns, int $rounds): int
{
    $out = tempnam(sys_get_temp_dir(), 'tasync-callgrind-');
    $cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' . $out, PHP_BINARY, '-n',
        '-d', 'extension=' . $build . '/ext-php/async.so', '-d', 'async.backend_dir=' . $build . '/backends',
        '-d', 'async.reactor=' . $backend, '-d', 'async.stall_timeout=0', __DIR__ . '/server.php', (string) PORT];
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'],
        2 => ['file', $out . '.log', 'w']], $pipes);
    if ($proc === false) {
        throw new RuntimeException('cannot start valgrind');
    }
    try {
        $sockets = [];
        $until = microtime(true) + 120;
        while (count($sockets) < $conns) {
            $s = @stream_socket_client('tcp://127.0.0.1:' . PORT, $errno, $errstr, 1.0);
            if ($s === false) {
                if (microtime(true) > $until) {
                    throw new RuntimeException("the server did not listen: $errstr");
                }
                usleep(100000);
                continue;
            }
            $sockets[] = $s;
        }
        for ($r = 0; $r < $rounds; $r++) {
            foreach ($sockets as $s) {
                fwrite($s, REQUEST);
            }
            $pending = $sockets;
            $got = array_fill(0, $conns, '');
            while ($pending) {
                $read = $pending;
                $w = $e = null;
                if (stream_select($read, $w, $e, 120) === 0) {
                    throw new RuntimeException('no response for 120 s');
                }
                foreach ($read as $s) {
                    $i = array_search($s, $sockets, true);
                    $chunk = fread($s, 65536);
                    if ($chunk === '' || $chunk === false) {
                        throw new RuntimeException('the server closed a connection');
                    }
                    $got[$i] .= $chunk;
                    if (str_ends_with($got[$i], RESPONSE_END)) {
                        unset($pending[array_search($s, $pending, true)]);
                    }
                }
            }
        }
        foreach ($sockets as $s) {
            fclose($s);
        }
    } finally {
        proc_terminate($proc); /* SIGTERM: callgrind writes its counts */
        proc_close($proc);
    }
    $ir = 0;
    foreach (file($out) ?: [] as $line) {
        if (preg_match('/^(?:summary|totals): (\d+)/', $line, $m)) {
            $ir = (int) $m[1];
        }
    }
    @unlink($out);
    @unlink($out . '.log');
    if ($ir === 0) {
        throw new RuntimeException('callgrind wrote no counts');
    }
    return $ir;
}

printf("# %d connections, %d then %d requests each, Ir per request beyond the first run\n", $conns, $low, $high);
foreach (array_filter(explode(',', $opts['backends'])) as $backend) {
    $a = measure($build, $backend, $conns, $low);
    $b = measure($build, $backend, $conns, $high);
    printf("%-6s %8.0f Ir/request  (%d and %d Ir)\n", $backend, ($b - $a) / ($conns * ($high - $low)), $a, $b);
}
