--TEST--
Rule S10/C15 (Future semantics): an exception kept on a coroutine whose handle is still alive when the program ends escalates then: reported as uncaught, exit status 255
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$file = __DIR__ . '/012-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown function\n"));
$tasks = [Async\spawn(fn() => throw new LogicException("never awaited"))];
Async\suspend();
echo "main ends\n";
PHP);
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out, $status);
echo implode("\n", $out), "\nstatus: $status\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/012-child.php'); ?>
--EXPECTF--
main ends
%AFatal error: %wUncaught LogicException: never awaited in %s012-child.php:3
Stack trace:
#0 [internal function]: {closure}()
#1 {main}
  thrown in %s012-child.php on line 3
%Ashutdown function
status: 255
