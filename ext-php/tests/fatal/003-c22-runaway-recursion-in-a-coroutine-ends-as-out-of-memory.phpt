--TEST--
Runaway recursion of PHP functions in a coroutine ends the request as out of memory (the VM stack grows on the heap)
--FILE--
<?php
$file = __DIR__ . '/003-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
function down(int $n): int { return down($n + 1) + 1; }
Async\spawn(function () {
    try { Async\delay(5000); echo "other continued\n"; } finally { echo "other finally\n"; }
});
$c = Async\spawn(fn() => down(0));
Async\await($c);
echo "main continued after fatal\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec("USE_ZEND_ALLOC=1 $php $args -d memory_limit=16M " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/003-child.php'); ?>
--EXPECTF--
Fatal error: Allowed memory size of %d bytes exhausted %s in %s003-child.php on line 3
shutdown ran
status 255
