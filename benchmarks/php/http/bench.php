<?php
// The HTTP keep-alive benchmark (issues 13 and 24): every server of this
// folder pinned to CPU 0, wrk (one thread) pinned to CPU 1, at 50 and 1000
// connections, the servers taking turns in every round (forward, then
// backward, ...) so that a disturbance from another process hits one round
// of a few servers rather than every run of one.
//
//   php -n bench.php BUILD_DIR [--seconds=3] [--rounds=3] [--connections=50,1000]
//                              [--backends=uv,uring,ev] [--only=NAME,...] [--grind]
//
// BUILD_DIR is a meson build with ext-php/async.so, backends/ and
// benchmarks/http-floor (./dev bench uses build-release). Two servers on
// each side: the minimal one (server.php, amp_server.php) and the realistic
// one (real_server.php, amp_real_server.php: the request parsed into an
// array, Content-Length bodies, Connection: close, a 30 s idle timeout per
// connection, accept with a 1 s timeout). Printed per server and connection
// count: requests per second (median of the rounds, and the range), the
// server's CPU time per request (utime + stime of the whole process from
// /proc/PID/stat over the measured run, divided by wrk's request count) and
// its user/kernel split, its RSS after each round, and the ratios against
// the baselines measured in the same script (issue 24's goals): at 1000
// connections the runtime's CPU per request <= 0.85x AMPHP v2's for the same
// server on every backend, and the minimal server's <= 1.25x the C floor of
// the same kind of reactor (epoll for uv and ev, io_uring for uring) at 1000
// connections and <= 1.15x at 50.
//
// --grind adds, next to each figure, the instructions and the cache misses
// per request of the same server at the same connection count under
// cachegrind (grind.php: simulated caches, as this VM has no hardware
// counters; independent of the machine's load). It takes several minutes.
//
// Bounded: every wrk run is killed after its duration plus 10 s; every
// process started here is killed by PID when the script ends, on an error
// and on Ctrl-C.
declare(strict_types=1);

const BASE_PORT = 18200;
const GOAL_CPU_VS_AMP = 0.85;       // 1000 conns: runtime CPU/request <= 0.85x AMPHP v2's, same server
const GOAL_CPU_VS_FLOOR_1000 = 1.25;  // minimal server, 1000 conns: <= 1.25x the C floor's
const GOAL_CPU_VS_FLOOR_50 = 1.15;    // minimal server, 50 conns: <= 1.15x the C floor's

// ------------------------------------------------------------ arguments

$opts = ['seconds' => '3', 'rounds' => '3', 'connections' => '50,1000', 'backends' => 'uv,uring,ev', 'only' => '',
    'grind' => null];
$build = null;
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m) && array_key_exists($m[1], $opts)) {
        $opts[$m[1]] = $m[2];
    } elseif ($arg === '--grind') {
        $opts['grind'] = true;
    } elseif ($build === null && $arg[0] !== '-') {
        $build = $arg;
    } else {
        fwrite(STDERR, "usage: bench.php BUILD_DIR [--seconds=S] [--rounds=N] [--connections=50,1000] "
            . "[--backends=uv,uring,ev] [--only=NAME,...] [--grind]\n");
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
            [$user0, $sys0] = cpu_split($pid);
            $res = wrk($p, $c, $seconds, ['taskset', '-c', '1']);
            [$user1, $sys1] = cpu_split($pid);
            $cpu = $user1 - $user0 + $sys1 - $sys0;
            if (!running($pid)) {
                throw new RuntimeException("$name died: " . file_get_contents($log));
            }
            if ($res === null) {
                continue;
            }
            [$reqs, $secs, $errors] = $res;
            $results[$name][$c][] = [$reqs / $secs, $reqs > 0 ? $cpu / $reqs * 1e6 : NAN, $errors,
                $reqs > 0 ? ($user1 - $user0) / $reqs * 1e6 : NAN, $reqs > 0 ? ($sys1 - $sys0) / $reqs * 1e6 : NAN];
            fprintf(STDERR, "  round %d  %-22s %5d conns  %9.0f req/s  %6.2f us/req%s\n", $r + 1, $name, $c,
                $reqs / $secs, $reqs > 0 ? $cpu / $reqs * 1e6 : NAN, $errors ? "  ($errors errors)" : '');
        }
        $rss[$name][] = rss_mib($pid);
    }
}

// ------------------------------------------------ cachegrind (--grind)

// name => conns => events per request (grind.php), for the servers that
// parse HTTP (the runtime, AMPHP, the C floor).
$grind = [];
if ($opts['grind']) {
    require __DIR__ . '/grind.php';
    fprintf(STDERR, "cachegrind: every server again under valgrind (minutes)\n");
    $gport = BASE_PORT + 90;
    foreach ($servers as $name => [$cmd, $kind, $backend]) {
        if (!in_array($kind, ['floor', 'runtime', 'runtime-real', 'amp', 'amp-real'], true)) {
            continue;
        }
        foreach ($connections as $c) {
            // Fewer rounds at 1000 connections: the same number of requests.
            [$low, $high] = $c >= 500 ? [5, 15] : [40, 120];
            try {
                $grind[$name][$c] = grind_per_request($cmd, $gport++, 'cachegrind', $c, $low, $high);
            } catch (RuntimeException $e) {
                fprintf(STDERR, "cachegrind of %s at %d conns failed: %s\n", $name, $c, $e->getMessage());
            }
        }
    }
}

// -------------------------------------------------------------- tables

$summary = [];  // name => conns => [rps median, cpu median, user median, sys median]
printf("\n%-24s %6s %10s %17s %10s %13s %7s %7s %24s%s\n", 'server', 'conns', 'req/s', '(range)', 'CPU us/req',
    '(range)', 'user', 'kernel', 'RSS MiB by round', $grind ? '   cachegrind per request: Ir  D1 miss  LL miss' : '');
foreach ($results as $name => $byConns) {
    foreach ($byConns as $c => $runs) {
        $rps = array_column($runs, 0);
        $cpu = array_column($runs, 1);
        $errors = array_sum(array_column($runs, 2));
        $summary[$name][$c] = [median($rps), median($cpu), median(array_column($runs, 3)),
            median(array_column($runs, 4))];
        $g = $grind[$name][$c] ?? null;
        printf("%-24s %6d %10.0f %17s %10.2f %13s %7.2f %7.2f %24s%s%s\n", $name, $c, median($rps),
            sprintf('(%.0f-%.0f)', min($rps), max($rps)), median($cpu), sprintf('(%.1f-%.1f)', min($cpu), max($cpu)),
            $summary[$name][$c][2], $summary[$name][$c][3],
            $c === $connections[0] ? implode(' ', array_map(static fn ($v) => sprintf('%.1f', $v), $rss[$name])) : '',
            $g ? sprintf('   %23.0f %8.1f %8.1f', $g['Ir'], $g['D1'], $g['LL']) : '',
            $errors ? "  $errors socket errors" : '');
    }
}

/** Prints one ratio line: measured / baseline against a goal. */
function ratio_line(string $what, ?float $value, ?float $baseline, string $goal, ?bool $met): void
{
    if ($value === null || $baseline === null || !($baseline > 0)) {
        printf("  %-72s %s\n", $what, 'n/a (a server is missing)');
        return;
    }
    printf("  %-72s %6.2fx  %-10s %s\n", $what, $value / $baseline, $goal,
        $met === null ? '' : ($met ? 'goal met' : 'GOAL MISSED'));
}

echo "\n== ratios (medians of the rounds above; CPU = user + kernel time of the server per request)\n";
foreach ($backends as $b) {
    if (!isset($summary["runtime $b"]) && !isset($summary["runtime $b real"])) {
        continue;
    }
    $floorName = $b === 'uring' ? 'C io_uring' : 'C epoll';
    foreach ($connections as $c) {
        $cpu = static fn (string $name) => $summary[$name][$c][1] ?? null;
        $rps = static fn (string $name) => $summary[$name][$c][0] ?? null;
        foreach (['' => 'AMPHP v2', ' real' => 'AMPHP v2 real'] as $suffix => $amp) {
            $rt = "runtime $b$suffix";
            $goal = $c >= 1000 ? GOAL_CPU_VS_AMP : null;
            ratio_line("$b, $c conns: $rt CPU/req / $amp CPU/req", $cpu($rt), $cpu($amp),
                $goal !== null ? sprintf('<= %.2fx', $goal) : '',
                $goal !== null && $cpu($rt) !== null && $cpu($amp) !== null ? $cpu($rt) <= $goal * $cpu($amp) : null);
        }
        $goal = $c >= 1000 ? GOAL_CPU_VS_FLOOR_1000 : ($c <= 50 ? GOAL_CPU_VS_FLOOR_50 : null);
        ratio_line("$b, $c conns: runtime $b CPU/req / $floorName CPU/req", $cpu("runtime $b"), $cpu($floorName),
            $goal !== null ? sprintf('<= %.2fx', $goal) : '',
            $goal !== null && $cpu("runtime $b") !== null && $cpu($floorName) !== null
                ? $cpu("runtime $b") <= $goal * $cpu($floorName) : null);
        ratio_line("$b, $c conns: runtime $b req/s / AMPHP v2 req/s", $rps("runtime $b"), $rps('AMPHP v2'), '', null);
        ratio_line("$b, $c conns: runtime $b real req/s / AMPHP v2 real req/s", $rps("runtime $b real"),
            $rps('AMPHP v2 real'), '', null);
        ratio_line("$b, $c conns: runtime delay(1) / AMPHP v2 delay(1) req/s", $rps("runtime $b delay(1)"),
            $rps('AMPHP v2 delay(1)'), '', null);
        ratio_line("$b, $c conns: runtime / Node http req/s", $rps("runtime $b"), $rps('Node http'), '', null);
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
