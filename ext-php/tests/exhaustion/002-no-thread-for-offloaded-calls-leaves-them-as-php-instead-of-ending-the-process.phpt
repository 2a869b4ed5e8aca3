--TEST--
When no thread can be started for offloaded calls (no room for a thread's stack), file reads and name lookups still give PHP's results and the process goes on
--DESCRIPTION--
Issue 21: on uv, offloaded calls ran on libuv's pool, which aborts the
process when it cannot start a thread. The core's pool (every backend
since ABI 1.3) runs the job on the runtime's thread instead, as plain PHP
makes the call, with one warning. The child runs with an address-space limit a few MiB above
what the same script maps without one, too little for a thread's 8 MiB
stack.
--FILE--
<?php
$file = __DIR__ . '/002-child.php';
file_put_contents($file, <<<'PHP'
<?php
if (($argv[1] ?? '') === 'measure') {
    echo (int) explode(' ', file_get_contents('/proc/self/statm'))[0] * 4096 >> 10, "\n";
    exit;
}
Async\delay(1);  // the runtime is up; the main flow is a coroutine
$ip = gethostbyname('localhost');
echo "lookup: $ip\n";
echo "read: ", file_get_contents(__FILE__, false, null, 0, 5), "\n";
echo "threads: ", count(glob('/proc/self/task/*')), "\n";
echo "the script went on\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS') . ' -d async.file_offload=always';
$kib = (int) shell_exec("$php $args " . escapeshellarg($file) . ' measure');
exec('ulimit -v ' . ($kib + 4096) . '; ' . "$php $args " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/002-child.php'); ?>
--EXPECTF--
Warning: no thread could be started for offloaded work: it runs on the runtime's thread, and the other coroutines wait meanwhile in %s on line %d
lookup: 127.0.0.1
read: <?php
threads: 1
the script went on
status 0
