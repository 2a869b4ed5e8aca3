<?php
// The HTTP keep-alive benchmark (issue 13): every server of this folder
// pinned to CPU 0, wrk (one thread) pinned to CPU 1, at 50 and 1000
// connections, the servers taking turns in every round (forward, then
// backward, ...) so that a disturbance from another process hits one round
// of a few servers rather than every run of one.
//
//   php -n bench.php BUILD_DIR [--seconds=3] [--rounds=3] [--connections=50,1000]
//                              [--backends=uv,uring,ev] [--only=NAME,...]
//
// BUILD_DIR is a meson build with ext-php/async.so, backends/ and
// benchmarks/http-floor (./dev bench uses build-release). Printed per server
// and connection count: requests per second (median of the rounds, and the
// range), the server's CPU time per request (utime + stime of the whole
// process from /proc/PID/stat over the measured run, divided by wrk's
// request count), its RSS after each round, and the ratios against the
// baselines measured in the same script: the runtime against AMPHP v2, and
// the runtime's CPU per request against the C floor on the same kind of
// reactor (epoll for uv and ev, io_uring for uring).
//
// Bounded: every wrk run is killed after its duration plus 10 s; every
// process started here is killed by PID when the script ends, on an error
// and on Ctrl-C.
declare(strict_types=1);

const BASE_PORT = 18200;
const GOAL_VS_AMP = 1.5;      // runtime req/s >= 1.5x AMPHP's
const GOAL_VS_FLOOR = 1.5;    // runtime CPU/request <= 1.5x the C floor's

// ------------------------------------------------------------ arguments

$opts = ['seconds' => '3', 'rounds' => '3', 'connections' => '50,1000', 'backends' => 'uv,uring,ev', 'only' => ''];
$build = null;
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m) && array_key_exists($m[1], $opts)) {
        $opts[$m[1]] = $m[2];
    } elseif ($build === null && $arg[0] !== '-') {
        $build = $arg;
    } else {
        fwrite(STDERR, "usage: bench.php BUILD_DIR [--seconds=S] [--rounds=N] [--connections=50,1000] "
            . "[--backends=uv,uring,ev] [--only=NAME,...]\n");
        exit(2);
    }
}
if ($build === null || !is_dir($build)) {
    fwrite(STDERR, "bench.php: give the meson build directory (e.g. build-release)\n");
    exit(2);
}
$build = realpath($build);
$seconds = max(1, (int) $opts['seconds']);
$rounds = max(1, (int) $opts['rounds']);
$connections = array_map('intval', explode(',', $opts['connections']));
$backends = array_filter(explode(',', $opts['backends']));
$only = array_filter(explode(',', $opts['only']));

foreach (['wrk' => 'wrk', 'taskset' => 'taskset'] as $tool) {
    if (trim((string) shell_exec('command -v ' . escapeshellarg($tool))) === '') {
        fwrite(STDERR, "bench.php: $tool is missing (Debian package " . ($tool === 'wrk' ? 'wrk' : 'util-linux') . ")\n");
        exit(1);
    }
}

require __DIR__ . '/proc.php';

$servers = http_servers($build, $backends);
if ($only) {
    $servers = array_filter($servers, static fn ($name) => in_array($name, $only, true), ARRAY_FILTER_USE_KEY);
}
if (!$servers) {
    fwrite(STDERR, "bench.php: no server to run\n");
    exit(1);
}
$node = isset($servers['Node http']) ? $servers['Node http'][0][0] : '';



function rss_mib(int $pid): float
{
    $status = (string) @file_get_contents("/proc/$pid/status");
    return preg_match('/^VmRSS:\s+(\d+) kB/m', $status, $m) ? (int) $m[1] / 1024 : 0.0;
}




// ---------------------------------------------------------------- runs

$started = [];   // name => [pid, port, log]
$port = BASE_PORT;
foreach ($servers as $name => [$cmd, $kind, $backend]) {
    $p = $port++;
    $log = "$tmp/server-$p.log";
    $started[$name] = [start_server($cmd, $p, $log), $p, $log];
}

$loadStart = loadavg();
printf("== HTTP/1.1 keep-alive: server on CPU 0, wrk -t1 on CPU 1, %d s per run, %d rounds (load average at start: %s)\n",
    $seconds, $rounds, $loadStart);
if ($node !== '') {
    printf("   node %s, wrk %s, PHP %s (-n: no opcache)\n", trim((string) shell_exec("$node --version")),
        preg_match('/wrk (\S+)/', (string) shell_exec('wrk --version 2>&1'), $m) ? $m[1] : '?', PHP_VERSION);
}

$results = [];   // name => conns => list of [rps, cpu_us, errors]
$rss = [];       // name => list of MiB after each round
$names = array_keys($started);
for ($r = 0; $r < $rounds; $r++) {
    $order = $r % 2 ? array_reverse($names) : $names;
    foreach ($order as $name) {
        [$pid, $p, $log] = $started[$name];
        foreach ($connections as $c) {
            wrk($p, $c, 1, ['taskset', '-c', '1']);  // warm-up: connections accepted, code and memory warm
            $cpu0 = cpu_seconds($pid);
            $res = wrk($p, $c, $seconds, ['taskset', '-c', '1']);
            $cpu = cpu_seconds($pid) - $cpu0;
            if (!running($pid)) {
                throw new RuntimeException("$name died: " . file_get_contents($log));
            }
            if ($res === null) {
                continue;
            }
            [$reqs, $secs, $errors] = $res;
            $results[$name][$c][] = [$reqs / $secs, $reqs > 0 ? $cpu / $reqs * 1e6 : NAN, $errors];
            fprintf(STDERR, "  round %d  %-22s %5d conns  %9.0f req/s  %6.2f us/req%s\n", $r + 1, $name, $c,
                $reqs / $secs, $reqs > 0 ? $cpu / $reqs * 1e6 : NAN, $errors ? "  ($errors errors)" : '');
        }
        $rss[$name][] = rss_mib($pid);
    }
}

// -------------------------------------------------------------- tables

$summary = [];  // name => conns => [rps median, cpu median]
printf("\n%-22s %6s %10s %19s %11s %9s %24s\n", 'server', 'conns', 'req/s', '(range)', 'CPU us/req', '(range)',
    'RSS MiB by round');
foreach ($results as $name => $byConns) {
    foreach ($byConns as $c => $runs) {
        $rps = array_column($runs, 0);
        $cpu = array_column($runs, 1);
        $errors = array_sum(array_column($runs, 2));
        $summary[$name][$c] = [median($rps), median($cpu)];
        printf("%-22s %6d %10.0f %19s %11.2f %9s %24s%s\n", $name, $c, median($rps),
            sprintf('(%.0f-%.0f)', min($rps), max($rps)), median($cpu), sprintf('(%.1f-%.1f)', min($cpu), max($cpu)),
            $c === $connections[0] ? implode(' ', array_map(static fn ($v) => sprintf('%.1f', $v), $rss[$name])) : '',
            $errors ? "  $errors socket errors" : '');
    }
}

/** Prints one ratio line: measured / baseline against a goal. */
function ratio_line(string $what, ?float $value, ?float $baseline, string $goal, ?bool $met): void
{
    if ($value === null || $baseline === null || !($baseline > 0)) {
        printf("  %-64s %s\n", $what, 'n/a (a server is missing)');
        return;
    }
    printf("  %-64s %6.2fx  %-10s %s\n", $what, $value / $baseline, $goal,
        $met === null ? '' : ($met ? 'goal met' : 'GOAL MISSED'));
}

echo "\n== ratios (medians of the rounds above)\n";
foreach ($backends as $b) {
    if (!isset($summary["runtime $b"])) {
        continue;
    }
    $floorName = $b === 'uring' ? 'C io_uring' : 'C epoll';
    foreach ($connections as $c) {
        $rt = $summary["runtime $b"][$c] ?? null;
        $rtd = $summary["runtime $b delay(1)"][$c] ?? null;
        $amp = $summary['AMPHP v2'][$c] ?? null;
        $ampd = $summary['AMPHP v2 delay(1)'][$c] ?? null;
        $fl = $summary[$floorName][$c] ?? null;
        $nd = $summary['Node http'][$c] ?? null;
        $ok = static fn ($a, $b, $f) => $a !== null && $b !== null ? $f($a, $b) : null;
        ratio_line("$b, $c conns: runtime / AMPHP v2 req/s", $rt[0] ?? null, $amp[0] ?? null, '>= 1.5x',
            $ok($rt, $amp, static fn ($x, $y) => $x[0] >= GOAL_VS_AMP * $y[0]));
        ratio_line("$b, $c conns: runtime delay(1) / AMPHP v2 delay(1) req/s", $rtd[0] ?? null, $ampd[0] ?? null,
            '', null);
        ratio_line("$b, $c conns: runtime / Node http req/s", $rt[0] ?? null, $nd[0] ?? null, '', null);
        ratio_line("$b, $c conns: runtime CPU/req / $floorName CPU/req", $rt[1] ?? null, $fl[1] ?? null, '<= 1.5x',
            $ok($rt, $fl, static fn ($x, $y) => $x[1] <= GOAL_VS_FLOOR * $y[1]));
    }
}
echo "\n== RSS after the first round -> after the last, and its growth in each later round (goal: flat)\n";
foreach ($rss as $name => $v) {
    $growth = [];
    for ($i = 1; $i < count($v); $i++) {
        $growth[] = sprintf('%+.1f', $v[$i] - $v[$i - 1]);
    }
    printf("  %-22s %7.1f -> %7.1f MiB  (%+.1f)  by round: %s\n", $name, $v[0], end($v), end($v) - $v[0],
        $growth ? implode(' ', $growth) : '-');
}
printf("\nload average at the end: %s\n", loadavg());
