--TEST--
Out of memory in the main flow while coroutines wait: none runs on, shutdown functions once, status 255
--FILE--
<?php
$file = __DIR__ . '/009-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
Async\spawn(function () {
    try { Async\delay(5000); echo "other continued\n"; } finally { echo "other finally\n"; }
});
Async\delay(5);
$s = str_repeat('x', 50_000_000);
echo "main continued after fatal\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec("USE_ZEND_ALLOC=1 $php $args -d memory_limit=16M " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/009-child.php'); ?>
--EXPECTF--
Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s009-child.php on line 7
shutdown ran
status 255
