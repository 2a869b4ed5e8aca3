--TEST--
Out of memory in a coroutine ends the request: no other coroutine runs on, no finally block, shutdown functions once, status 255
--DESCRIPTION--
PHP 8.2 as Debian builds it reports this error at the next VM interrupt by
unwinding (unwind_exit, as exit() does) instead of a bailout; it must still end
the request as a fatal error (rule C22). The script runs in a child process
with PHP's own allocator (USE_ZEND_ALLOC=1): without it there is no memory
limit, as under valgrind.
--FILE--
<?php
$file = __DIR__ . '/001-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
$other = Async\spawn(function () {
    try { Async\delay(5000); echo "other continued\n"; } finally { echo "other finally\n"; }
});
$c = Async\spawn(function () { $s = str_repeat('x', 50_000_000); echo "after the allocation\n"; });
$c->onFinally(fn() => print("onFinally ran\n"));
try {
    Async\await($c);
} finally {
    echo "main finally\n";
}
echo "main continued after fatal\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec("USE_ZEND_ALLOC=1 $php $args -d memory_limit=16M " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/001-child.php'); ?>
--EXPECTF--
Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s001-child.php on line 6
shutdown ran
status 255
