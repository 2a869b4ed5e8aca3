--TEST--
Out of memory in the main flow while 100 or 10 000 spawned coroutines have not started: none starts, the shutdown functions run once, status 255
--DESCRIPTION--
Issue 21: the memory is taken up by small allocations, so that what the
runtime needs to end the coroutines must not come from new memory. Ending
10 000 coroutines that never started used to queue one release per
coroutine (their callables, and the shared cancellation error) in an array
grown by doubling, whose growth met the limit again: a second "Allowed
memory size exhausted ... in Unknown on line 0" followed, and the shutdown
functions never ran. The child runs with PHP's own allocator
(USE_ZEND_ALLOC=1): without it there is no memory limit, as under valgrind.
--FILE--
<?php
$file = __DIR__ . '/012-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
register_shutdown_function(fn() => print("second shutdown function ran\n"));
for ($i = 0; $i < (int) $argv[1]; $i++) {
    Async\spawn(function ($n) {
        try { echo "coroutine $n started\n"; } finally { echo "finally of $n\n"; }
    }, $i);
}
$head = null;
while (true) {
    $head = [$head, str_repeat('z', 100)];
}
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
foreach ([100, 10000] as $n) {
    echo "-- $n coroutines\n";
    $out = [];
    exec("USE_ZEND_ALLOC=1 $php $args -d memory_limit=16M " . escapeshellarg($file) . " $n 2>&1; echo \"status \$?\"", $out);
    echo implode("\n", $out), "\n";
}
?>
--CLEAN--
<?php @unlink(__DIR__ . '/012-child.php'); ?>
--EXPECTF--
-- 100 coroutines

Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s012-child.php on line 11
shutdown ran
second shutdown function ran
status 255
-- 10000 coroutines

Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s012-child.php on line 11
shutdown ran
second shutdown function ran
status 255
