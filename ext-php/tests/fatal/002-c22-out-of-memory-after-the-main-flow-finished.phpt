--TEST--
Out of memory in a coroutine after the main flow finished still runs the shutdown functions once, and no other coroutine runs on
--FILE--
<?php
$file = __DIR__ . '/002-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
Async\spawn(function () {
    try { Async\delay(5000); echo "other continued\n"; } finally { echo "other finally\n"; }
});
Async\spawn(function () { Async\delay(5); $s = str_repeat('x', 50_000_000); echo "after the allocation\n"; });
echo "main done\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec("USE_ZEND_ALLOC=1 $php $args -d memory_limit=16M " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/002-child.php'); ?>
--EXPECTF--
main done

Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s002-child.php on line 6
shutdown ran
status 255
