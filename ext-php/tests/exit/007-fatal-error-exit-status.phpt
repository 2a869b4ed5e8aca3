--TEST--
A fatal error in a coroutine gives exit status 255
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$file = __DIR__ . '/007-child.php';
file_put_contents($file, '<?php Async\spawn(function () { Async\suspend(); trigger_error("x", E_USER_ERROR); }); echo "main\n";');
exec("$php $args " . escapeshellarg($file) . " 2>&1", $out, $status);
echo $out[0], "\n", $status, "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/007-child.php'); ?>
--EXPECT--
main
255
