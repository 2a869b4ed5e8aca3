--TEST--
Rule C14: a deadlock ends the script with exit status 255
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$code = '$c = Async\spawn(function () use (&$c) { Async\suspend(); Async\await(Async\spawn(fn() => Async\await($c))); });';
$file = __DIR__ . '/006-child.php';
file_put_contents($file, "<?php $code");
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out, $status);
echo $status, "\n";
echo preg_match('/Fatal error: Uncaught Async.DeadlockError/', implode("\n", $out)) ? "fatal reported\n" : implode("\n", $out);
?>
--CLEAN--
<?php @unlink(__DIR__ . '/006-child.php'); ?>
--EXPECT--
255
fatal reported
