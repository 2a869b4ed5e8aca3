<?php
// A server of this folder under valgrind (callgrind or cachegrind) while a
// plain-PHP client keeps its connections busy: the instructions, and the
// simulated cache misses, it spends per request. Such counts do not depend
// on the machine's load (bench.php's times need a quiet machine). This VM
// has no hardware performance counters, so cache misses are cachegrind's
// simulation of the host's caches (its defaults: the L1 and last-level
// caches of the CPU it runs on), not measured ones.
//
// Used by callgrind.php and bench.php (--grind). With GRIND_KEEP=1 in the
// environment the output files are kept (their names go to stderr), for
// cg_annotate or callgrind_annotate.
declare(strict_types=1);

const GRIND_REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
const GRIND_RESPONSE_END = "Hello, World!";

/**
 * Runs $cmd (an argument list; '@PORT' stands for the port, appended when
 * absent) under valgrind --tool=$tool while $conns keep-alive connections
 * each make $rounds requests, one at a time. Returns the totals valgrind
 * wrote: ['Ir' => ..., 'D1mr' => ..., ...] (cachegrind: Ir, I1mr, ILmr, Dr,
 * D1mr, DLmr, Dw, D1mw, DLmw; callgrind: Ir).
 */
function grind_server(array $cmd, int $port, string $tool, int $conns, int $rounds): array
{
    $out = tempnam(sys_get_temp_dir(), "tasync-$tool-");
    $cmd = in_array('@PORT', $cmd, true)
        ? array_map(static fn ($a) => $a === '@PORT' ? (string) $port : $a, $cmd)
        : array_merge($cmd, [(string) $port]);
    $vg = ['valgrind', "--tool=$tool", "--$tool-out-file=$out"];
    if ($tool === 'cachegrind') {
        $vg[] = '--cache-sim=yes';
    }
    $proc = proc_open(array_merge($vg, $cmd), [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'],
        2 => ['file', $out . '.log', 'w']], $pipes);
    if ($proc === false) {
        throw new RuntimeException('cannot start valgrind');
    }
    try {
        $sockets = [];
        $until = microtime(true) + 120;
        while (count($sockets) < $conns) {
            $s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5.0);
            if ($s === false) {
                if (microtime(true) > $until || !proc_get_status($proc)['running']) {
                    throw new RuntimeException("the server did not listen: $errstr "
                        . @file_get_contents($out . '.log'));
                }
                usleep(100000);
                continue;
            }
            $sockets[] = $s;
        }
        for ($r = 0; $r < $rounds; $r++) {
            foreach ($sockets as $s) {
                fwrite($s, GRIND_REQUEST);
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
                    if (str_ends_with($got[$i], GRIND_RESPONSE_END)) {
                        unset($pending[array_search($s, $pending, true)]);
                    }
                }
            }
        }
        foreach ($sockets as $s) {
            fclose($s);
        }
    } finally {
        proc_terminate($proc); /* SIGTERM: valgrind writes its counts */
        proc_close($proc);
    }
    $events = [];
    $totals = [];
    foreach (file($out) ?: [] as $line) {
        if (preg_match('/^events: (.+)$/', $line, $m)) {
            $events = preg_split('/\s+/', trim($m[1]));
        } elseif (preg_match('/^(?:summary|totals): (.+)$/', $line, $m)) {
            $totals = array_map('intval', preg_split('/\s+/', trim($m[1])));
        }
    }
    if (getenv('GRIND_KEEP')) {
        /* For cg_annotate / callgrind_annotate: where the counts come from. */
        fprintf(STDERR, "%s output kept: %s\n", $tool, $out);
    } else {
        @unlink($out);
    }
    @unlink($out . '.log');
    if (!$events || !$totals) {
        throw new RuntimeException("$tool wrote no counts");
    }
    return array_combine(array_slice($events, 0, count($totals)), $totals);
}

/**
 * Per request, beyond the start and the end of the process: two runs of
 * $low and $high requests per connection, the difference divided by the
 * requests between them. Returns the events per request (cachegrind adds
 * 'D1' = D1mr + D1mw and 'LL' = DLmr + DLmw + ILmr).
 */
function grind_per_request(array $cmd, int $port, string $tool, int $conns, int $low, int $high): array
{
    $a = grind_server($cmd, $port, $tool, $conns, $low);
    $b = grind_server($cmd, $port, $tool, $conns, $high);
    $per = [];
    foreach ($b as $event => $v) {
        $per[$event] = ($v - ($a[$event] ?? 0)) / ($conns * ($high - $low));
    }
    if ($tool === 'cachegrind') {
        $per['D1'] = ($per['D1mr'] ?? 0) + ($per['D1mw'] ?? 0);
        $per['LL'] = ($per['DLmr'] ?? 0) + ($per['DLmw'] ?? 0) + ($per['ILmr'] ?? 0);
    }
    return $per;
}
