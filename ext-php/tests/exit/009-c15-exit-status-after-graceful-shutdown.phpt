--TEST--
Rule C15: after graceful shutdown the program ends with exit()'s status; cancelled coroutines may still await
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$file = __DIR__ . '/009-child.php';
file_put_contents($file, <<<'PHP'
<?php
Async\spawn(function () {
    try {
        Async\delay(60000);
    } finally {
        // Cleanup that waits: allowed during graceful shutdown.
        echo Async\await(Async\spawn(fn() => "cleanup awaited")), "\n";
    }
});
Async\spawn(function () { Async\suspend(); exit(42); });
PHP);
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out, $status);
echo implode("\n", $out), "\n", $status, "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/009-child.php'); ?>
--EXPECT--
cleanup awaited
42
