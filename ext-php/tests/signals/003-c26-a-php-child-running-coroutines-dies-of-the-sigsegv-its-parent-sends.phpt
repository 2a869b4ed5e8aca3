--TEST--
A PHP child running coroutines dies of the SIGSEGV its parent sends, so proc_close() returns instead of waiting forever
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') die("skip the child's death under valgrind");
?>
--FILE--
<?php
$file = __DIR__ . '/003-child.php';
file_put_contents($file, <<<'PHP'
<?php
Async\spawn(function () {
    for ($i = 0; $i < 600; $i++) {
        Async\delay(50);
    }
});
echo "ready\n";
Async\delay(30000);
echo "the child survived\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$p = proc_open("exec $php $args " . escapeshellarg($file), [1 => ['pipe', 'w']], $pipes);
echo "child says: ", fgets($pipes[1]);
$pid = proc_get_status($p)['pid'];
exec("kill -SEGV $pid");
for ($i = 0; $i < 300 && ($s = proc_get_status($p))['running']; $i++) {
    usleep(100000);
}
var_dump($s['running'], $s['signaled'], $s['termsig'] === SIGSEGV);
echo stream_get_contents($pipes[1]);
fclose($pipes[1]);
proc_close($p);
?>
--CLEAN--
<?php @unlink(__DIR__ . '/003-child.php'); ?>
--EXPECT--
child says: ready
bool(false)
bool(true)
bool(true)
