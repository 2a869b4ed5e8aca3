<?php
// More than one core (issue 13, item 5): examples/php/http_workers.php with
// 1 and with 2 worker processes (SO_REUSEPORT), driven by wrk, at 50 and
// 1000 connections, the two configurations taking turns in every round.
// Printed: requests per second (median of the rounds, and the range), the
// workers' CPU time per request (utime + stime of every worker process from
// /proc/PID/stat, divided by wrk's request count), and the ratio 2 workers /
// 1 worker.
//
//   php -n workers.php BUILD_DIR [--seconds=3] [--rounds=3] [--connections=50,1000]
//                                [--backend=uv] [--wrk-threads=1]
//
// Nothing is pinned: the workers and wrk share the machine's CPUs, so on a
// machine with C CPUs, wrk takes about one of them and 2 workers can reach
// at most (C - 1) / 1 of one worker's rate plus what wrk leaves idle; the
// script prints the CPU count next to the ratio. Every process started here
// is killed by PID when the script ends, on an error and on Ctrl-C.
declare(strict_types=1);

const BASE_PORT = 18300;

$opts = ['seconds' => '3', 'rounds' => '3', 'connections' => '50,1000', 'backend' => 'uv', 'wrk-threads' => '1'];
$build = null;
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z-]+)=(.*)$/', $arg, $m) && array_key_exists($m[1], $opts)) {
        $opts[$m[1]] = $m[2];
    } elseif ($build === null && $arg[0] !== '-') {
        $build = $arg;
    } else {
        fwrite(STDERR, "usage: workers.php BUILD_DIR [--seconds=S] [--rounds=N] [--connections=50,1000] "
            . "[--backend=uv] [--wrk-threads=1]\n");
        exit(2);
    }
}
if ($build === null || !is_file("$build/ext-php/async.so")) {
    fwrite(STDERR, "workers.php: give a meson build directory with ext-php/async.so (e.g. build-release)\n");
    exit(2);
}
if (trim((string) shell_exec('command -v wrk')) === '') {
    fwrite(STDERR, "workers.php: wrk is missing (Debian package wrk)\n");
    exit(1);
}
$build = realpath($build);
$seconds = max(1, (int) $opts['seconds']);
$rounds = max(1, (int) $opts['rounds']);
$connections = array_map('intval', explode(',', $opts['connections']));
$backend = $opts['backend'];
$wrkThreads = max(1, (int) $opts['wrk-threads']);

require __DIR__ . '/proc.php';


/** PIDs whose parent is $pid (the master's workers). */
function children_of(int $pid): array
{
    $out = [];
    foreach (glob('/proc/[0-9]*/stat') ?: [] as $f) {
        $stat = (string) @file_get_contents($f);
        $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
        if (isset($fields[1]) && (int) $fields[1] === $pid) {
            $out[] = (int) basename(dirname($f));
        }
    }
    return $out;
}

function workers_cpu(int $master): float
{
    return array_sum(array_map('cpu_seconds', children_of($master)));
}



$example = dirname(__DIR__, 3) . '/examples/php/http_workers.php';
$masters = [];   // workers => [pid, port, log]
foreach ([1, 2] as $i => $n) {
    $port = BASE_PORT + $i;
    $log = "$tmp/workers-$n.log";
    [, $pid] = start([PHP_BINARY, '-n', '-d', 'memory_limit=-1', '-d', "extension=$build/ext-php/async.so",
        '-d', "async.backend_dir=$build/backends", '-d', "async.reactor=$backend",
        $example, "--port=$port", "--workers=$n"], $log);
    wait_listening($port, $pid, $log);
    $until = microtime(true) + 10;
    while (count(children_of($pid)) < $n && microtime(true) < $until) {
        usleep(50000);
    }
    $masters[$n] = [$pid, $port, $log];
}

$cpus = (int) trim((string) shell_exec('nproc')) ?: 1;
printf("== examples/php/http_workers.php on %s: 1 and 2 workers, wrk -t%d, %d s per run, %d rounds, %d CPUs, nothing pinned (load average at start: %s)\n",
    $backend, $wrkThreads, $seconds, $rounds, $cpus, loadavg());

$results = [];   // workers => conns => list of [rps, cpu us/req, errors]
for ($r = 0; $r < $rounds; $r++) {
    foreach ($r % 2 ? [2, 1] : [1, 2] as $n) {
        [$pid, $port, $log] = $masters[$n];
        foreach ($connections as $c) {
            wrk($port, $c, 1, [], $wrkThreads);   // warm-up
            $cpu0 = workers_cpu($pid);
            $res = wrk($port, $c, $seconds, [], $wrkThreads);
            $cpu = workers_cpu($pid) - $cpu0;
            if (!running($pid)) {
                throw new RuntimeException("the $n-worker master died: " . file_get_contents($log));
            }
            if ($res === null) {
                continue;
            }
            [$reqs, $secs, $errors] = $res;
            $results[$n][$c][] = [$reqs / $secs, $reqs > 0 ? $cpu / $reqs * 1e6 : NAN, $errors];
            fprintf(STDERR, "  round %d  %d worker(s) %5d conns  %9.0f req/s  %6.2f us/req%s\n", $r + 1, $n, $c,
                $reqs / $secs, $reqs > 0 ? $cpu / $reqs * 1e6 : NAN, $errors ? "  ($errors errors)" : '');
        }
    }
}

printf("\n%-10s %6s %10s %19s %11s\n", 'workers', 'conns', 'req/s', '(range)', 'CPU us/req');
foreach ($results as $n => $byConns) {
    foreach ($byConns as $c => $runs) {
        $rps = array_column($runs, 0);
        $errors = array_sum(array_column($runs, 2));
        printf("%-10d %6d %10.0f %19s %11.2f%s\n", $n, $c, median($rps), sprintf('(%.0f-%.0f)', min($rps), max($rps)),
            median(array_column($runs, 1)), $errors ? "  $errors socket errors" : '');
    }
}
echo "\n== ratio 2 workers / 1 worker (req/s medians)\n";
foreach ($connections as $c) {
    $one = isset($results[1][$c]) ? median(array_column($results[1][$c], 0)) : null;
    $two = isset($results[2][$c]) ? median(array_column($results[2][$c], 0)) : null;
    printf("  %5d conns: %s\n", $c, $one > 0 && $two !== null ? sprintf('%.2fx', $two / $one) : 'n/a');
}

// Drain: SIGTERM to each master; it must exit 0 with its workers.
foreach ($masters as $n => [$pid, , $log]) {
    $workers = children_of($pid);
    global $procs;
    proc_terminate($procs[$pid], SIGTERM);
    $ok = wait_exit($pid, 20);
    $left = array_filter($workers, static fn ($w) => is_file("/proc/$w/stat")
        && !preg_match('/\) Z /', (string) file_get_contents("/proc/$w/stat")));
    printf("drain of the %d-worker server on SIGTERM: %s\n", $n,
        $ok && !$left ? 'master and workers exited' : 'FAILED: ' . file_get_contents($log));
    foreach ($left as $w) {
        exec('kill -9 ' . (int) $w);
    }
}
printf("load average at the end: %s\n", loadavg());
