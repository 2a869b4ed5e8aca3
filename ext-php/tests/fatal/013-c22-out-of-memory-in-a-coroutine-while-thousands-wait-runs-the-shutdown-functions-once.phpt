--TEST--
Out of memory in a coroutine while 100 or 10 000 others wait: none runs on, no finally block, the shutdown functions run once, status 255
--DESCRIPTION--
Issue 21: as fatal/012, with coroutines suspended in delay() (each unwinds
without running user code) and the memory taken up by small allocations
inside a coroutine. The child runs with PHP's own allocator
(USE_ZEND_ALLOC=1): without it there is no memory limit, as under valgrind.
The memory is taken by a flat array: under the tracing JIT the coroutine's
variables are destroyed on its own stack after the error, and a list nested
tens of thousands deep overflows a 256 KiB stack there (README, "Not done
yet").
--FILE--
<?php
$file = __DIR__ . '/013-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
register_shutdown_function(fn() => print("second shutdown function ran\n"));
for ($i = 0; $i < (int) $argv[1]; $i++) {
    Async\spawn(function ($n) {
        try { Async\delay(5000); echo "coroutine $n continued\n"; } finally { echo "finally of $n\n"; }
    }, $i);
}
Async\delay(1);
$hog = Async\spawn(function () {
    $rows = [];
    while (true) {
        $rows[] = str_repeat('z', 100);
    }
});
$hog->onFinally(fn() => print("onFinally ran\n"));
Async\await($hog);
echo "main continued\n";
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
<?php @unlink(__DIR__ . '/013-child.php'); ?>
--EXPECTF--
-- 100 coroutines

Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s013-child.php on line 13
shutdown ran
second shutdown function ran
status 255
-- 10000 coroutines

Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes) in %s013-child.php on line 13
shutdown ran
second shutdown function ran
status 255
