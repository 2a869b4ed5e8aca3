--TEST--
An uncaught exception in a coroutine gives exit status 255
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$file = __DIR__ . '/002-child.php';
file_put_contents($file, '<?php Async\spawn(function () { throw new Exception("x"); });');
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out, $status);
echo $status, "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/002-child.php'); ?>
--EXPECT--
255
