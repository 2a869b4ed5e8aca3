<?php
// The keep-alive servers of this folder under callgrind (or cachegrind):
// the instructions (and the simulated cache misses) they execute per
// request, figures that a busy machine does not change (bench.php's times
// need a quiet one).
//
//   php -n callgrind.php [--backends=uv,ev] [--servers=minimal,real] [--amp]
//       [--tool=callgrind|cachegrind] [--connections=50] [--requests=100,300] BUILD_DIR
//
// For each backend and server (server.php: minimal; real_server.php: the
// request parsed into an array, Content-Length, Connection: close, timeouts)
// the server runs twice under valgrind while this script (plain PHP, no
// extension) keeps CONNECTIONS keep-alive connections busy: every round it
// writes one request on each and reads every response. The two runs make
// the two request counts per connection given; what the second run executed
// beyond the first, divided by the requests it served beyond the first, is
// the cost of one request without the start and the end of the process.
// --amp adds the AMPHP v2 servers of the same kinds. Printed: Ir per request
// (and with cachegrind, D1 and last-level misses per request; simulated:
// this VM has no hardware counters).
//
// Bounded: the server is killed (SIGTERM, which makes valgrind write its
// counts) after the client is done; waits end after 120 s without progress.
declare(strict_types=1);

require __DIR__ . '/grind.php';

const PORT = 18290;

$given = getopt('', ['backends:', 'servers:', 'amp', 'tool:', 'connections:', 'requests:'], $rest);
$opts = (is_array($given) ? $given : []) + ['backends' => 'uv,ev', 'servers' => 'minimal', 'tool' => 'callgrind',
    'connections' => '50', 'requests' => '100,300'];
$build = $argv[$rest] ?? null;
if ($build === null || count($argv) > $rest + 1 || !is_file("$build/ext-php/async.so")
        || !in_array($opts['tool'], ['callgrind', 'cachegrind'], true)) {
    fwrite(STDERR, "usage: callgrind.php [--backends=uv,ev] [--servers=minimal,real] [--amp] "
        . "[--tool=callgrind|cachegrind] [--connections=N] [--requests=LOW,HIGH] BUILD_DIR\n"
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
$scripts = ['minimal' => ['server.php', 'amp_server.php'], 'real' => ['real_server.php', 'amp_real_server.php']];

$runs = [];  // label => command
foreach (array_filter(explode(',', $opts['servers'])) as $kind) {
    if (!isset($scripts[$kind])) {
        fwrite(STDERR, "callgrind.php: unknown server $kind (minimal, real)\n");
        exit(2);
    }
    foreach (array_filter(explode(',', $opts['backends'])) as $backend) {
        $runs["$backend $kind"] = [PHP_BINARY, '-n', '-d', "extension=$build/ext-php/async.so",
            '-d', "async.backend_dir=$build/backends", '-d', "async.reactor=$backend", '-d', 'async.stall_timeout=0',
            __DIR__ . '/' . $scripts[$kind][0]];
    }
    if (isset($given['amp'])) {
        $runs["AMPHP v2 $kind"] = [PHP_BINARY, '-n', __DIR__ . '/' . $scripts[$kind][1]];
    }
}

printf("# %s, %d connections, %d then %d requests each, per request beyond the first run%s\n", $opts['tool'],
    $conns, $low, $high, $opts['tool'] === 'cachegrind' ? ' (cache misses simulated by cachegrind)' : '');
foreach ($runs as $label => $cmd) {
    $per = grind_per_request($cmd, PORT, $opts['tool'], $conns, $low, $high);
    if ($opts['tool'] === 'cachegrind') {
        printf("%-18s %8.0f Ir/request  %7.1f D1 misses  %6.1f LL misses\n", $label, $per['Ir'], $per['D1'], $per['LL']);
    } else {
        printf("%-18s %8.0f Ir/request\n", $label, $per['Ir']);
    }
}
