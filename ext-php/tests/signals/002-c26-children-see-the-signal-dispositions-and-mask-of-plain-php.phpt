--TEST--
Programs started by exec and proc_open, and children forked by pcntl_fork, see the signal mask and dispositions plain PHP gives them
--DESCRIPTION--
The same script runs without the extension and with the runtime up, and
compares what /proc/self/status shows: SigBlk (blocked), SigIgn (ignored),
SigCgt (caught). A forked child keeps a working runtime, whose guard-page
handler for SIGSEGV and SIGBUS (transparent for every other SIGSEGV/SIGBUS,
see 001) is the only allowed difference; exec() resets it.
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die("skip pcntl_fork is not available");
/* Under valgrind (run-tests.php -m traces children) every process shows
 * valgrind's own signal handlers. */
if (getenv('USE_ZEND_ALLOC') === '0') die("skip valgrind catches every signal itself");
?>
--FILE--
<?php
$file = __DIR__ . '/002-child.php';
file_put_contents($file, <<<'PHP'
<?php
function fields(string $status): array {
    preg_match_all('/^(SigBlk|SigIgn|SigCgt):\s*(\S+)/m', $status, $m, PREG_SET_ORDER);
    $out = [];
    foreach ($m as [, $k, $v]) $out[$k] = $v;
    return $out;
}
$body = function (): array {
    $seen = [];
    $seen['exec'] = fields(shell_exec('cat /proc/self/status'));
    $p = proc_open(['cat', '/proc/self/status'], [1 => ['pipe', 'w']], $pipes);
    $seen['proc_open'] = fields(stream_get_contents($pipes[1]));
    fclose($pipes[1]);
    proc_close($p);
    $tmp = tempnam(sys_get_temp_dir(), 'sig');
    $pid = pcntl_fork();
    if ($pid === 0) {
        file_put_contents($tmp, json_encode(fields(file_get_contents('/proc/self/status'))));
        exit(0);
    }
    pcntl_waitpid($pid, $st);
    $seen['fork'] = json_decode(file_get_contents($tmp), true);
    unlink($tmp);
    return $seen;
};
if (function_exists('Async\spawn')) {
    Async\delay(1);
    echo json_encode(Async\await(Async\spawn($body)));
} else {
    echo json_encode($body());
}
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$plain = json_decode(shell_exec("$php -n " . escapeshellarg($file)), true);
$async = json_decode(shell_exec("$php $args " . escapeshellarg($file)), true);
// The low 32 bits hold SIGSEGV's and SIGBUS's (hexdec() of all 64 would be a float).
$guard = (1 << (SIGSEGV - 1)) | (1 << (SIGBUS - 1));
$without_guard = fn(string $hex): string => substr($hex, 0, -8) . sprintf('%08x', hexdec(substr($hex, -8)) & ~$guard);
foreach (['exec', 'proc_open', 'fork'] as $who) {
    foreach (['SigBlk', 'SigIgn', 'SigCgt'] as $field) {
        $a = $async[$who][$field];
        $p = $plain[$who][$field];
        if ($who === 'fork' && $field === 'SigCgt') {
            $a = $without_guard($a);
            $p = $without_guard($p);
        }
        printf("%s %s: %s\n", $who, $field, $a === $p ? "as in plain PHP" : "$a, plain PHP $p");
    }
}
?>
--CLEAN--
<?php @unlink(__DIR__ . '/002-child.php'); ?>
--EXPECT--
exec SigBlk: as in plain PHP
exec SigIgn: as in plain PHP
exec SigCgt: as in plain PHP
proc_open SigBlk: as in plain PHP
proc_open SigIgn: as in plain PHP
proc_open SigCgt: as in plain PHP
fork SigBlk: as in plain PHP
fork SigIgn: as in plain PHP
fork SigCgt: as in plain PHP
