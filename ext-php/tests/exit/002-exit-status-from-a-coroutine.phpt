--TEST--
exit(N) in a coroutine sets the exit status; exit("text") prints it
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$file = __DIR__ . '/002-child.php';
file_put_contents($file, '<?php Async\spawn(function () { Async\suspend(); exit(7); }); Async\spawn(fn() => Async\delay(100000)); echo "main done\n";');
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out, $status);
echo implode("\n", $out), "\n", $status, "\n";
file_put_contents($file, '<?php Async\await(Async\spawn(function () { die("bye\n"); }));');
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out2, $status);
echo implode("\n", $out2), "\n", $status, "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/002-child.php'); ?>
--EXPECT--
main done
7
bye
0
