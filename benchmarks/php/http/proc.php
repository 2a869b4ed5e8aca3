<?php
// The processes of the HTTP benchmark scripts (bench.php, syscalls.php):
// every process they start is recorded by PID and killed when the script
// ends, normally, on an uncaught error, or on Ctrl-C / SIGTERM / SIGHUP.
declare(strict_types=1);

/** PID => proc_open resource of every process still owned. */
$procs = [];
$tmp = sys_get_temp_dir() . '/tasync-http-bench-' . getmypid();
@mkdir($tmp);

/**
 * Starts $cmd (an argument list: no shell in between, so the PID is the
 * program's) with stdout and stderr into $log. Returns [resource, pid].
 */
function start(array $cmd, string $log): array
{
    global $procs;
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes);
    if ($p === false) {
        throw new RuntimeException('cannot start ' . implode(' ', $cmd));
    }
    $pid = proc_get_status($p)['pid'];
    $procs[$pid] = $p;
    return [$p, $pid];
}

function running(int $pid): bool
{
    global $procs;
    return isset($procs[$pid]) && proc_get_status($procs[$pid])['running'];
}

/**
 * Ends the process $pid: sends $signal, waits up to $grace seconds for it
 * to exit, then kills it.
 */
function stop(int $pid, int $signal = 9, float $grace = 0.0): void
{
    global $procs;
    if (!isset($procs[$pid])) {
        return;
    }
    $p = $procs[$pid];
    if (proc_get_status($p)['running']) {
        proc_terminate($p, $signal);
        $until = microtime(true) + $grace;
        while (proc_get_status($p)['running'] && microtime(true) < $until) {
            usleep(10000);
        }
        if (proc_get_status($p)['running']) {
            proc_terminate($p, 9);
        }
    }
    unset($procs[$pid]);
    proc_close($p);
}

/** Waits up to $seconds for $pid to exit by itself; false if it did not. */
function wait_exit(int $pid, float $seconds): bool
{
    $until = microtime(true) + $seconds;
    while (running($pid) && microtime(true) < $until) {
        usleep(10000);
    }
    return !running($pid);
}

function stop_all(): void
{
    global $procs, $tmp;
    foreach (array_keys($procs) as $pid) {
        stop($pid);
    }
    foreach (glob("$tmp/*") ?: [] as $f) {
        unlink($f);
    }
    @rmdir($tmp);
}

register_shutdown_function('stop_all');
pcntl_async_signals(true);
foreach ([SIGINT, SIGTERM, SIGHUP] as $sig) {
    pcntl_signal($sig, static function (int $sig): void {
        fwrite(STDERR, "\ninterrupted: stopping every process this script started\n");
        exit(128 + $sig);  // the shutdown function kills what runs
    });
}

/** Waits until a server accepts connections on $port (10 s at most). */
function wait_listening(int $port, int $pid, string $log): void
{
    $until = microtime(true) + 10;
    while (microtime(true) < $until) {
        if (!running($pid)) {
            throw new RuntimeException("server on port $port exited: " . file_get_contents($log));
        }
        $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2);
        if ($c !== false) {
            fclose($c);
            return;
        }
        usleep(50000);
    }
    throw new RuntimeException("server on port $port does not listen after 10 s");
}

function loadavg(): string
{
    return implode(' ', array_slice(explode(' ', (string) file_get_contents('/proc/loadavg')), 0, 3));
}

/**
 * The servers of this folder for a build directory: name => [command
 * (argument list; '@PORT' stands for the port, appended when absent),
 * kind, backend]. Missing programs are left out with a note on stderr.
 */
function http_servers(string $build, array $backends): array
{
    $here = __DIR__;
    $ext = "$build/ext-php/async.so";
    $floor = "$build/benchmarks/http-floor";
    $servers = [];
    $php = [PHP_BINARY, '-n', '-d', 'memory_limit=-1'];
    if (is_file($floor)) {
        $servers['C epoll'] = [[$floor, 'epoll'], 'floor', 'epoll'];
        $servers['C io_uring'] = [[$floor, 'uring'], 'floor', 'uring'];
    } else {
        fwrite(STDERR, "no $floor: the C floor is skipped\n");
    }
    if (is_file($ext)) {
        foreach ($backends as $b) {
            if (!is_file("$build/backends/tasync-backend-$b.so")) {
                continue;
            }
            $rt = array_merge($php, ['-d', "extension=$ext", '-d', "async.backend_dir=$build/backends",
                '-d', "async.reactor=$b", "$here/server.php"]);
            $servers["runtime $b"] = [$rt, 'runtime', $b];
            $servers["runtime $b real"] = [array_merge(array_slice($rt, 0, -1), ["$here/real_server.php"]),
                'runtime-real', $b];
            $servers["runtime $b delay(1)"] = [array_merge($rt, ['@PORT', 'delay']), 'runtime-delay', $b];
        }
    } else {
        fwrite(STDERR, "no $ext: the runtime servers are skipped\n");
    }
    if (is_file('/usr/share/php/Amp/autoload.php')) {
        $servers['AMPHP v2'] = [array_merge($php, ["$here/amp_server.php"]), 'amp', ''];
        $servers['AMPHP v2 real'] = [array_merge($php, ["$here/amp_real_server.php"]), 'amp-real', ''];
        $servers['AMPHP v2 delay(1)'] = [array_merge($php, ["$here/amp_server.php", '@PORT', 'delay']), 'amp-delay', ''];
    } else {
        fwrite(STDERR, "php-amphp-amp is not installed: AMPHP is skipped\n");
    }
    $node = trim((string) shell_exec('command -v node'));
    if ($node !== '') {
        $servers['Node http'] = [[$node, "$here/node_server.js"], 'node', ''];
    } else {
        fwrite(STDERR, "node is not installed: Node is skipped\n");
    }
    return $servers;
}

/** Starts one server of http_servers() pinned to CPU 0; returns its PID. */
function start_server(array $cmd, int $port, string $log): int
{
    $cmd = in_array('@PORT', $cmd, true)
        ? array_map(static fn ($a) => $a === '@PORT' ? (string) $port : $a, $cmd)
        : array_merge($cmd, [(string) $port]);
    [, $pid] = start(array_merge(['taskset', '-c', '0'], $cmd), $log);
    wait_listening($port, $pid, $log);
    return $pid;
}

/** [utime, stime] of the whole process (every thread), in seconds. */
function cpu_split(int $pid): array
{
    static $clk = null;
    $clk ??= ((int) trim((string) shell_exec('getconf CLK_TCK')) ?: 100);
    $stat = (string) @file_get_contents("/proc/$pid/stat");
    if ($stat === '') {
        return [0.0, 0.0];  // gone
    }
    // The command name (field 2) may hold spaces: fields after its ')'.
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
    return [(int) $fields[11] / $clk, (int) $fields[12] / $clk];
}

/** utime + stime of the whole process (every thread), in seconds. */
function cpu_seconds(int $pid): float
{
    return array_sum(cpu_split($pid));
}

/**
 * Runs wrk (after $prefix, e.g. ['taskset', '-c', '1'], with $threads
 * threads) against 127.0.0.1:$port; returns [requests, seconds, errors] or
 * null. Killed after its duration plus 10 s.
 */
function wrk(int $port, int $conns, int $seconds, array $prefix = [], int $threads = 1): ?array
{
    global $tmp;
    $log = "$tmp/wrk.log";
    [$p, $pid] = start(array_merge($prefix, ['wrk', "-t$threads", "-c$conns", "-d{$seconds}s", '--timeout', '5s',
        "http://127.0.0.1:$port/"]), $log);
    $until = microtime(true) + $seconds + 10;
    while (proc_get_status($p)['running'] && microtime(true) < $until) {
        usleep(20000);
    }
    stop($pid);
    $out = (string) file_get_contents($log);
    if (!preg_match('/(\d+) requests in ([\d.]+)(ms|s|m)\b/', $out, $m)) {
        fwrite(STDERR, "wrk failed on port $port: $out\n");
        return null;
    }
    $secs = (float) $m[2] * ['ms' => 0.001, 's' => 1, 'm' => 60][$m[3]];
    $errors = 0;
    if (preg_match('/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/', $out, $e)) {
        $errors += (int) $e[1] + (int) $e[2] + (int) $e[3] + (int) $e[4];
    }
    if (preg_match('/Non-2xx or 3xx responses: (\d+)/', $out, $e)) {
        $errors += (int) $e[1];
    }
    return [(int) $m[1], $secs, $errors];
}

function median(array $v): float
{
    sort($v);
    $n = count($v);
    return $n === 0 ? NAN : ($n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2);
}
