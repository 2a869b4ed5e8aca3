--TEST--
C26: commands that popen(), shell_exec(), exec(), system() and proc_open() start inside coroutines (the extension starts them itself, from the thread pool) see the signal mask and dispositions plain PHP gives them
--FILE--
<?php
$file = __DIR__ . '/010-child.php';
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
    $ran = false;
    $other = function_exists('Async\spawn') ? Async\spawn(function () use (&$ran) { $ran = true; }) : null;
    $seen['shell_exec'] = fields(shell_exec('sleep 0.05; cat /proc/self/status'));
    $seen['suspended'] = $ran;
    // The pool's threads exist by now: a mask changed after they started is
    // the PHP thread's alone, and proc_open's child, started from the pool,
    // must still get it.
    if (function_exists('pcntl_sigprocmask')) pcntl_sigprocmask(SIG_BLOCK, [SIGUSR2]);
    exec('cat /proc/self/status', $lines);
    $seen['exec'] = fields(implode("\n", $lines));
    ob_start();
    system('cat /proc/self/status');
    $seen['system'] = fields(ob_get_clean());
    $p = popen('cat /proc/self/status', 'r');
    $seen['popen'] = fields(stream_get_contents($p));
    pclose($p);
    // No shell in between: dash clears the mask it was given.
    $p = proc_open(['cat', '/proc/self/status'], [1 => ['pipe', 'w']], $pipes);
    $seen['proc_open'] = fields(stream_get_contents($pipes[1]));
    proc_close($p);
    return $seen;
};
echo json_encode(function_exists('Async\spawn') ? Async\await(Async\spawn($body)) : $body());
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$plain = json_decode(shell_exec("$php -n " . escapeshellarg($file)), true);
$async = json_decode(shell_exec("$php $args " . escapeshellarg($file)), true);
echo "shell_exec suspended only its coroutine: ", $async['suspended'] ? "yes" : "no", "\n";
foreach (['shell_exec', 'exec', 'system', 'popen', 'proc_open'] as $who) {
    foreach (['SigBlk', 'SigIgn', 'SigCgt'] as $field) {
        $a = $async[$who][$field] ?? '?';
        $p = $plain[$who][$field] ?? '?';
        printf("%s %s: %s\n", $who, $field, $a === $p ? "as in plain PHP" : "$a, plain PHP $p");
    }
}
?>
--CLEAN--
<?php @unlink(__DIR__ . '/010-child.php'); ?>
--EXPECT--
shell_exec suspended only its coroutine: yes
shell_exec SigBlk: as in plain PHP
shell_exec SigIgn: as in plain PHP
shell_exec SigCgt: as in plain PHP
exec SigBlk: as in plain PHP
exec SigIgn: as in plain PHP
exec SigCgt: as in plain PHP
system SigBlk: as in plain PHP
system SigIgn: as in plain PHP
system SigCgt: as in plain PHP
popen SigBlk: as in plain PHP
popen SigIgn: as in plain PHP
popen SigCgt: as in plain PHP
proc_open SigBlk: as in plain PHP
proc_open SigIgn: as in plain PHP
proc_open SigCgt: as in plain PHP
