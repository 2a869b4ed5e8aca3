--TEST--
A SIGSEGV sent to the process while a coroutine runs (kill -SEGV) kills it as in plain PHP: the guard-page handler does not swallow it
--SKIPIF--
<?php
/* run-tests.php -m runs children under valgrind too, which reports the
 * deliberate death itself (core/tests/overflow_test.cpp covers the handler). */
if (getenv('USE_ZEND_ALLOC') === '0') die("skip the child's death under valgrind");
?>
--FILE--
<?php
$file = __DIR__ . '/001-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
$c = Async\spawn(function () {
    exec('kill -SEGV ' . getmypid());
    Async\delay(50);
    echo "the coroutine survived\n";
});
Async\await($c);
echo "the main flow survived\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
// How a command ended: its output, then "killed by signal N" or "status N".
function ended(string $cmd): string {
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    $out = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    do {
        $s = proc_get_status($p);
        if ($s['running']) usleep(10000);
    } while ($s['running']);
    proc_close($p);
    return $out . ($s['signaled'] ? "killed by signal {$s['termsig']}" : "status {$s['exitcode']}") . "\n";
}
echo "with the runtime: ", ended("exec $php $args " . escapeshellarg($file));
echo "plain PHP: ", ended("exec $php -n -r " . escapeshellarg('exec("kill -SEGV " . getmypid()); usleep(50000); echo "survived\n";'));
?>
--CLEAN--
<?php @unlink(__DIR__ . '/001-child.php'); ?>
--EXPECTF--
with the runtime: killed by signal 11
plain PHP: killed by signal 11
