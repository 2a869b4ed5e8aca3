--TEST--
Out of descriptors (ulimit -n): stream_socket_accept(), stream_socket_client() and fsockopen() in coroutines wait until one is closed or a backoff passes before they fail with PHP's warning, so a loop of them lets the other coroutines run and goes on once a descriptor is closed
--DESCRIPTION--
Issue 21: a failing accept returned at once, so an accept loop under
EMFILE spun without ever suspending and starved the coroutines that could
have closed descriptors (300 000 failed calls, the other coroutines never
ran). Now such a call waits (io/wait.c: until PHP closes a descriptor, or
10 ms doubling to 1 s) and tries once more before it fails as PHP fails.
The script runs in a child process under `ulimit -n`, with every
descriptor taken.
--FILE--
<?php
$file = __DIR__ . '/003-child.php';
file_put_contents($file, <<<'PHP'
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

$server = stream_socket_server('tcp://127.0.0.1:0');
$address = stream_socket_get_name($server, false);
$unix = sys_get_temp_dir() . '/tasync-exhaustion-003-' . getmypid() . '.sock';
$unix_server = stream_socket_server("unix://$unix");
delay(1);
$held = [];
while (($f = @fopen('/dev/null', 'r')) !== false) {
    $held[] = $f;
}
// The last descriptor for a connection that waits in the listen queue.
fclose(array_pop($held));
$client = stream_socket_client("tcp://$address");
$ticks = 0;
$ticker = spawn(function () use (&$ticks) { while (true) { delay(5); $ticks++; } });

echo "-- one call: PHP's warnings, after a wait\n";
$t = hrtime(true);
var_dump(stream_socket_accept($server, 5));
var_dump(stream_socket_client("tcp://$address", $errno, $errstr, 5));
echo "they waited: ", (hrtime(true) - $t) / 1e6 >= 15 ? "yes" : "no", "\n";

$loops = [
    'stream_socket_accept' => fn() => @stream_socket_accept($server, 10),
    'stream_socket_client' => fn() => @stream_socket_client("tcp://$address", $errno, $errstr, 10),
    'fsockopen' => fn() => @fsockopen('127.0.0.1', (int) substr(strrchr($address, ':'), 1), $errno, $errstr, 10),
    'a unix connect' => fn() => @stream_socket_client("unix://$unix", $errno, $errstr, 10),
];
foreach ($loops as $what => $call) {
    echo "-- a loop of $what\n";
    $t = hrtime(true);
    $ticks = 0;
    $failed = 0;
    $loop = spawn(function () use ($call, &$failed) {
        while (($s = $call()) === false) {
            if (++$failed > 100) {
                return 'spun';
            }
        }
        return $s;
    });
    spawn(function () use (&$held) { delay(300); fclose(array_pop($held)); });
    $s = await($loop);
    $ms = (hrtime(true) - $t) / 1e6;
    echo "got a stream once a descriptor was closed: ", is_resource($s) && $ms >= 250 ? "yes" : "no (" . var_export($s, true) . " after $ms ms)", "\n";
    echo "failed calls: ", $failed >= 1 && $failed <= 8 ? "a few" : $failed, "\n";
    echo "the other coroutines ran meanwhile: ", $ticks >= 10 ? "yes" : "no ($ticks ticks)", "\n";
    // The stream's descriptor goes back to the held ones.
    fclose($s);
    $held[] = fopen('/dev/null', 'r');
}
$ticker->cancel();
unlink($unix);
echo "done\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec('ulimit -n 64; ' . "$php $args " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/003-child.php'); ?>
--EXPECTF--
-- one call: PHP's warnings, after a wait

Warning: stream_socket_accept(): Accept failed: Too many open files in %s003-child.php on line %d
bool(false)

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Unknown error) in %s003-child.php on line %d
bool(false)
they waited: yes
-- a loop of stream_socket_accept
got a stream once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
-- a loop of stream_socket_client
got a stream once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
-- a loop of fsockopen
got a stream once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
-- a loop of a unix connect
got a stream once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
done
status 0
