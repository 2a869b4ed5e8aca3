<?php
// System calls per keep-alive request of the HTTP servers (issue 13 goal:
// <= 2 for the runtime server), counted two ways:
//
//  - strace -c -f attached to the running server (every thread) while
//    http-floor's closed-loop client sends a fixed number of requests on
//    keep-alive connections. Two runs, N and 2N requests, on fresh
//    connections each: the difference divided by N leaves out the
//    connection set-up and what attaching costs. strace slows the server
//    down, so more connections are ready at each poll than at full speed:
//    its per-request counts of the reactor's own calls (epoll_wait,
//    io_uring_enter) are lower than without it; the read/write/poll calls
//    are one per request either way.
//  - perf stat on the raw_syscalls:sys_enter tracepoint, the same two runs:
//    every system call counted in the kernel without slowing the server
//    (when perf is installed and allowed to count).
//
//   php -n syscalls.php BUILD_DIR [--requests=20000] [--connections=50,1000]
//                                 [--only=NAME,...]
declare(strict_types=1);

$opts = ['requests' => '20000', 'connections' => '50,1000', 'only' => 'runtime uv,runtime uring,runtime ev,runtime uv real,runtime uring real,runtime ev real,AMPHP v2,AMPHP v2 real,C epoll,C io_uring'];
$build = null;
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m) && array_key_exists($m[1], $opts)) {
        $opts[$m[1]] = $m[2];
    } elseif ($build === null && $arg[0] !== '-') {
        $build = $arg;
    } else {
        fwrite(STDERR, "usage: syscalls.php BUILD_DIR [--requests=N] [--connections=50,1000] [--only=NAME,...]\n");
        exit(2);
    }
}
if ($build === null || !is_dir($build) || !is_file("$build/benchmarks/http-floor")) {
    fwrite(STDERR, "syscalls.php: give a meson build directory with benchmarks/http-floor\n");
    exit(2);
}
$build = realpath($build);
$n = max(1000, (int) $opts['requests']);
$connections = array_map('intval', explode(',', $opts['connections']));
$only = array_filter(explode(',', $opts['only']));
if (trim((string) shell_exec('command -v strace')) === '') {
    fwrite(STDERR, "syscalls.php: strace is missing (Debian package strace)\n");
    exit(1);
}
$havePerf = trim((string) shell_exec('command -v perf')) !== ''
    && str_contains((string) shell_exec('perf stat -e raw_syscalls:sys_enter true 2>&1'), 'raw_syscalls');

require __DIR__ . '/proc.php';

$servers = array_filter(http_servers($build, ['uv', 'uring', 'ev']),
    static fn ($name) => in_array($name, $only, true), ARRAY_FILTER_USE_KEY);

/** Runs the client: $requests requests over $conns connections. */
function client(int $port, int $conns, int $requests): void
{
    global $build, $tmp;
    [, $pid] = start(['taskset', '-c', '1', "$build/benchmarks/http-floor", 'client', (string) $port, (string) $conns,
        (string) $requests], "$tmp/client.log");
    if (!wait_exit($pid, 90)) {
        stop($pid);
        throw new RuntimeException('the client did not finish in 90 s');
    }
    stop($pid);
    if (!preg_match('/^(\d+) /', (string) file_get_contents("$tmp/client.log"), $m) || (int) $m[1] !== $requests) {
        throw new RuntimeException('client failed: ' . file_get_contents("$tmp/client.log"));
    }
}

/** syscall => calls, under strace -c attached to every thread of $pid. */
function strace_counts(int $server, int $port, int $conns, int $requests): array
{
    global $tmp;
    $out = "$tmp/strace.out";
    @unlink($out);
    $cmd = ['strace', '-c', '-f', '-o', $out];
    foreach (scandir("/proc/$server/task") as $tid) {
        if (preg_match('/^\d+$/', $tid)) {
            array_push($cmd, '-p', $tid);
        }
    }
    [, $pid] = start($cmd, "$tmp/strace.log");
    // Attached once strace says so for every thread.
    $until = microtime(true) + 10;
    while (substr_count((string) @file_get_contents("$tmp/strace.log"), 'attached') < (count($cmd) - 5) / 2
            && microtime(true) < $until) {
        usleep(20000);
    }
    client($port, $conns, $requests);
    stop($pid, SIGINT, 10);  // strace detaches and writes its summary
    $counts = [];
    foreach (file($out) ?: [] as $line) {
        // % time  seconds  usecs/call  calls  [errors]  syscall
        if (preg_match('/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?([a-z_0-9]+)\s*$/', $line, $m) && $m[2] !== 'total') {
            $counts[$m[2]] = (int) $m[1];
        }
    }
    return $counts;
}

/** Every system call of $pid's threads, counted by perf's tracepoint. */
function perf_count(int $server, int $port, int $conns, int $requests): int
{
    global $tmp;
    [, $pid] = start(['perf', 'stat', '-x', ',', '-e', 'raw_syscalls:sys_enter', '-p', (string) $server], "$tmp/perf.log");
    usleep(300000);
    client($port, $conns, $requests);
    stop($pid, SIGINT, 10);
    return preg_match('/^(\d+),[^,]*,raw_syscalls:sys_enter/m', (string) file_get_contents("$tmp/perf.log"), $m)
        ? (int) $m[1] : -1;
}

printf("== system calls per keep-alive request: %d and %d requests, difference / %d (load average: %s)\n",
    $n, 2 * $n, $n, loadavg());
$port = 18300;
foreach ($servers as $name => [$cmd]) {
    $p = $port++;
    $server = start_server($cmd, $p, "$tmp/server-$p.log");
    client($p, 50, 2000);  // warm: the first connections and requests are not counted
    foreach ($connections as $c) {
        $a = strace_counts($server, $p, $c, $n);
        $b = strace_counts($server, $p, $c, 2 * $n);
        $per = [];
        foreach ($a + $b as $sys => $_) {
            $d = (($b[$sys] ?? 0) - ($a[$sys] ?? 0)) / $n;
            if (abs($d) >= 0.005) {
                $per[$sys] = $d;
            }
        }
        arsort($per);
        $line = implode('  ', array_map(static fn ($s, $v) => sprintf('%s %.2f', $s, $v), array_keys($per), $per));
        $perf = '';
        if ($havePerf) {
            $pa = perf_count($server, $p, $c, $n);
            $pb = perf_count($server, $p, $c, 2 * $n);
            $perf = $pa >= 0 && $pb >= 0 ? sprintf('  | perf, full speed: %.2f', ($pb - $pa) / $n) : '';
        }
        printf("%-14s %5d conns: %5.2f per request (strace)%s\n    %s\n", $name, $c, array_sum($per), $perf, $line);
    }
    stop($server);
}
