--TEST--
Rule C13: with Xdebug's step debugger on and no client listening, coroutines, a Fiber inside one and xdebug_break() run to the end in bounded time
--EXTENSIONS--
xdebug
--INI--
xdebug.mode=debug
xdebug.start_with_request=yes
xdebug.client_host=127.0.0.1
xdebug.connect_timeout_ms=200
xdebug.log_level=0
--FILE--
<?php
// Nothing listens on this port: a socket bound and closed again.
$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);
echo "port closed\n";
$child = __DIR__ . '/005-child.php';
file_put_contents($child, <<<'PHP'
<?php
$t = hrtime(true);
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = Async\spawn(function () use ($i) {
        Async\delay(10);
        xdebug_break();
        $f = new Fiber(function () use ($i) { Async\suspend(); return $i; });
        $f->start();
        Async\delay(5);
        return $f->getReturn();
    });
}
$sum = 0;
foreach ($cs as $c) $sum += Async\await($c);
printf("sum %d in under 10 s: %s\n", $sum, (hrtime(true) - $t) < 10e9 ? "yes" : "no");
PHP);
$cmd = escapeshellarg(getenv('TEST_PHP_EXECUTABLE')) . ' ' . getenv('TEST_PHP_EXTRA_ARGS')
    . " -d xdebug.client_port=$port " . escapeshellarg($child) . ' 2>&1';
// The test's own timeout (and this one) bound it: timeout(1) kills a hang.
echo shell_exec("timeout 60 $cmd; echo status \$?");
?>
--CLEAN--
<?php @unlink(__DIR__ . '/005-child.php'); ?>
--EXPECT--
port closed
sum 3 in under 10 s: yes
status 0
