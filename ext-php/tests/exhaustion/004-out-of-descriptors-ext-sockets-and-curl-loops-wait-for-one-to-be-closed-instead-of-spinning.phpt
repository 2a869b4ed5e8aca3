--TEST--
Out of descriptors (ulimit -n): socket_accept(), socket_create() and curl_exec() in coroutines fail as PHP's after a wait until a descriptor is closed or a backoff passes, so a loop of them lets the other coroutines run and goes on once one is closed
--DESCRIPTION--
Issue 21, as exhaustion/003 for ext/sockets and ext/curl: without the
wait a loop of these calls under EMFILE failed hundreds of thousands of
times while no other coroutine ran.
--EXTENSIONS--
sockets
curl
--FILE--
<?php
$file = __DIR__ . '/004-child.php';
file_put_contents($file, <<<'PHP'
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

$server = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
socket_bind($server, '127.0.0.1', 0);
socket_listen($server);
socket_getsockname($server, $host, $port);
$curl = curl_init("http://127.0.0.1:$port/");
curl_setopt($curl, CURLOPT_RETURNTRANSFER, true);
curl_setopt($curl, CURLOPT_TIMEOUT_MS, 200);
delay(1);
$held = [];
while (($f = @fopen('/dev/null', 'r')) !== false) {
    $held[] = $f;
}
// The last descriptor for a connection that waits in the listen queue.
fclose(array_pop($held));
$client = stream_socket_client("tcp://127.0.0.1:$port");
$ticks = 0;
$ticker = spawn(function () use (&$ticks) { while (true) { delay(5); $ticks++; } });

echo "-- one call: PHP's warnings, after a wait\n";
$t = hrtime(true);
var_dump(socket_accept($server));
var_dump(socket_create(AF_INET, SOCK_STREAM, SOL_TCP));
var_dump(curl_exec($curl), curl_errno($curl) !== 0);
echo "they waited: ", (hrtime(true) - $t) / 1e6 >= 15 ? "yes" : "no", "\n";

$loops = [
    'socket_accept' => fn() => @socket_accept($server),
    'socket_create' => fn() => @socket_create(AF_INET, SOCK_STREAM, SOL_TCP),
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
    echo "got a socket once a descriptor was closed: ", $s instanceof Socket && $ms >= 250 ? "yes" : "no (" . var_export($s, true) . " after $ms ms)", "\n";
    echo "failed calls: ", $failed >= 1 && $failed <= 8 ? "a few" : $failed, "\n";
    echo "the other coroutines ran meanwhile: ", $ticks >= 10 ? "yes" : "no ($ticks ticks)", "\n";
    if ($s instanceof Socket) {
        socket_close($s);
    }
    $held[] = fopen('/dev/null', 'r');
}

echo "-- a loop of curl_exec\n";
$t = hrtime(true);
$ticks = 0;
$failed = 0;
$loop = spawn(function () use ($curl, &$failed) {
    // Once it has a descriptor, curl connects, then times out (nobody answers).
    while (curl_exec($curl) === false && curl_errno($curl) === CURLE_COULDNT_CONNECT) {
        if (++$failed > 100) {
            return 'spun';
        }
    }
    return curl_errno($curl);
});
spawn(function () use (&$held) { delay(300); fclose(array_pop($held)); });
$r = await($loop);
$ms = (hrtime(true) - $t) / 1e6;
echo "connected once a descriptor was closed: ", $r === CURLE_OPERATION_TIMEDOUT && $ms >= 250 ? "yes" : "no (" . var_export($r, true) . " after $ms ms)", "\n";
echo "failed calls: ", $failed >= 1 && $failed <= 8 ? "a few" : $failed, "\n";
echo "the other coroutines ran meanwhile: ", $ticks >= 10 ? "yes" : "no ($ticks ticks)", "\n";
$ticker->cancel();
echo "done\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec('ulimit -n 64; ' . "$php $args " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/004-child.php'); ?>
--EXPECTF--
-- one call: PHP's warnings, after a wait

Warning: socket_accept(): unable to accept incoming connection [24]: Too many open files in %s004-child.php on line %d
bool(false)

Warning: socket_create(): Unable to create socket [24]: Too many open files in %s004-child.php on line %d
bool(false)
bool(false)
bool(true)
they waited: yes
-- a loop of socket_accept
got a socket once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
-- a loop of socket_create
got a socket once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
-- a loop of curl_exec
connected once a descriptor was closed: yes
failed calls: a few
the other coroutines ran meanwhile: yes
done
status 0
