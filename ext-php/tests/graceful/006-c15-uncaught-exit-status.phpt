--TEST--
Rule C15: the error that reached the global scope is reported once, at the end, with exit status 255
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$file = __DIR__ . '/006-child.php';
file_put_contents($file, '<?php
Async\spawn(function () { Async\delay(1); throw new Exception("first"); });
Async\spawn(function () { try { Async\delay(60000); } finally { echo "cleanup\n"; } });
echo "main ends\n";');
exec("$php $args -d display_errors=stdout " . escapeshellarg($file), $out, $status);
echo implode("\n", $out), "\n", $status, "\n";
echo substr_count(implode("\n", $out), "Uncaught"), " report\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/006-child.php'); ?>
--EXPECTF--
main ends
cleanup

Fatal error: Uncaught Exception: first in %s:2
Stack trace:
#0 [internal function]: {closure}()
#1 {main}
  thrown in %s on line 2
255
1 report
