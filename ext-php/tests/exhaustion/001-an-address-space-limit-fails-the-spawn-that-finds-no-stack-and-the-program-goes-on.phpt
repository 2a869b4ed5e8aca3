--TEST--
Under ulimit -v, the spawn that finds no room for a stack throws, the coroutines already spawned run to their end, and the program ends normally with its shutdown functions
--DESCRIPTION--
Issue 21: 20 000 coroutines that each delay(10) under `ulimit -v 1500000`
took the address space with their stacks until PHP's own allocator found
none and ended the process ("Out of memory", no shutdown). Under an
address-space limit the runtime takes a coroutine's stack when it is
spawned and leaves memory_limit + 64 MiB of the limit to PHP's heap. The
script runs in a child process under the limit (PHP's allocator,
USE_ZEND_ALLOC=1; the child is not traced under valgrind).
--FILE--
<?php
$file = __DIR__ . '/001-child.php';
file_put_contents($file, <<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown functions ran\n"));
$ended = 0;
$spawned = [];
$failures = 0;
$first = null;
for ($i = 0; $i < 20000; $i++) {
    try {
        $spawned[] = Async\spawn(function () use (&$ended) { Async\delay(10); $ended++; });
    } catch (Throwable $e) {
        $failures++;
        $first ??= get_class($e) . ': ' . $e->getMessage();
    }
}
echo "first failure: $first\n";
echo "some spawned: ", count($spawned) > 100 ? "yes" : "no (" . count($spawned) . ")", "\n";
echo "some refused: ", $failures > 0 ? "yes" : "no", "\n";
foreach ($spawned as $c) Async\await($c);
echo "every spawned coroutine ended: ", $ended === count($spawned) ? "yes" : "no ($ended)", "\n";
// Memory is back: spawning works again.
echo Async\await(Async\spawn(fn() => "a spawn after the burst works")), "\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec('ulimit -v 1500000; USE_ZEND_ALLOC=1 ' . "$php $args " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/001-child.php'); ?>
--EXPECT--
first failure: Async\AsyncException: cannot allocate a coroutine stack: Cannot allocate memory
some spawned: yes
some refused: yes
every spawned coroutine ended: yes
a spawn after the burst works
shutdown functions ran
status 0
