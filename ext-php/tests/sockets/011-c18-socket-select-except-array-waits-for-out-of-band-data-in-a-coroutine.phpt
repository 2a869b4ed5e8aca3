--TEST--
Rule C18: socket_select with an except array waits in the calling coroutine for TCP out-of-band data (every backend, ev included) while the scheduler runs on, and returns PHP's count and arrays
--EXTENSIONS--
sockets
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$scale = services_time_scale();
$listener = socket_create_listen(0);
socket_getsockname($listener, $addr, $port);
$client = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
socket_connect($client, '127.0.0.1', $port);
$server = socket_accept($listener);

$ticker = new StallTicker();

// Only the except array: the select waits for the urgent byte sent 200 ms later.
spawn(function () use ($client) {
    Async\delay(200);
    socket_send($client, "!", 1, MSG_OOB);
});
$start = hrtime(true);
$n = await(spawn(function () use ($server) {
    $r = $w = null;
    $e = ['peer' => $server];
    $n = socket_select($r, $w, $e, 10);
    return [$n, array_keys($e)];
}));
$ms = (hrtime(true) - $start) / 1e6;
echo "except: $n[0], keys ", implode(',', $n[1]), ", after the byte was sent: ",
    $ms >= 150 && $ms < 5000 * $scale ? "yes" : "no ($ms ms)", "\n";
echo "the urgent byte: ", var_export(socket_recv($server, $buf, 1, MSG_OOB), true), " ", var_export($buf, true), "\n";

// Read and except arrays on the same socket: ordinary data makes it readable only.
spawn(function () use ($client) {
    Async\delay(100);
    socket_write($client, "data");
});
[$n, $r, $e] = await(spawn(function () use ($server) {
    $r = [$server];
    $w = null;
    $e = [$server];
    $n = socket_select($r, $w, $e, 10);
    return [$n, count($r), count($e)];
}));
echo "read and except: $n, readable $r, exceptional $e\n";
echo "read: ", socket_read($server, 16), "\n";

// Nothing urgent arrives: the timeout, and the arrays emptied.
$start = hrtime(true);
[$n, $e] = await(spawn(function () use ($server) {
    $r = $w = null;
    $e = [$server];
    $n = socket_select($r, $w, $e, 0, 200000);
    return [$n, count($e)];
}));
$ms = (hrtime(true) - $start) / 1e6;
echo "timeout: $n, $e left, after the timeout: ", $ms >= 190 && $ms < 5000 * $scale ? "yes" : "no ($ms ms)", "\n";

$stall = $ticker->stop();
echo "the scheduler never stalled: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
socket_close($client);
socket_close($server);
socket_close($listener);
?>
--EXPECT--
except: 1, keys peer, after the byte was sent: yes
the urgent byte: 1 '!'
read and except: 1, readable 1, exceptional 0
read: data
timeout: 0, 0 left, after the timeout: yes
the scheduler never stalled: yes
