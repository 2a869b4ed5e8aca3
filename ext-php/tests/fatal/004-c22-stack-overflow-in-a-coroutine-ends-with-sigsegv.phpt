--TEST--
Recursion that exhausts a coroutine's C stack is named on stderr and ends the process with SIGSEGV, as it does in plain PHP 8.2
--DESCRIPTION--
Recursion through internal callbacks (array_map here) nests C frames; PHP 8.2
has no C stack limit and dies of SIGSEGV on the main stack. On a coroutine's
stack the guard page turns the overflow into a message naming the coroutine,
then the same signal ends the process (shell status 139): shutdown functions
cannot run after a crash, in plain PHP neither.
--SKIPIF--
<?php
if (PHP_VERSION_ID >= 80300) die("skip PHP 8.3+ throws an Error at its C stack limit");
/* run-tests.php -m runs children under valgrind too, which reports the
 * deliberate crash itself (core/tests/overflow_test.cpp covers the handler). */
if (getenv('USE_ZEND_ALLOC') === '0') die("skip the child's crash under valgrind");
?>
--FILE--
<?php
$file = __DIR__ . '/004-child.php';
file_put_contents($file, <<<'PHP'
<?php
function down(int $n): array { return array_map('down', [$n + 1]); }
$c = Async\spawn(fn() => down(0));
Async\await($c);
echo "main continued after the overflow\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec("USE_ZEND_ALLOC=1 $php $args -d async.stack_size=256K " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/004-child.php'); ?>
--EXPECTF--
%Atasync: fatal: stack overflow in coroutine %d spawned at %s004-child.php:3: its stack of %d bytes is exhausted (the guard page was hit); raise the stack size %s
%Astatus 139
