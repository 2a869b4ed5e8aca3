--TEST--
Rule C18: ten clients' socket_connect, socket_write, socket_read and socket_recv on blocking sockets, served by socket_accept in coroutines of the same process, overlap: all take about the time of one and the scheduler never stalls
--EXTENSIONS--
sockets
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;
use function Async\await_all_or_fail;

const N = 10;
const REPLY_DELAY_MS = 200;
$scale = services_time_scale();

$listener = socket_create_listen(0);
socket_getsockname($listener, $addr, $port);

// Each connection is served by a coroutine that answers after a delay.
$server = spawn(function () use ($listener) {
    $served = [];
    for ($i = 0; $i < N; $i++) {
        $c = socket_accept($listener);
        $served[] = spawn(function () use ($c) {
            $request = socket_read($c, 100);
            Async\delay(REPLY_DELAY_MS);
            socket_write($c, "reply to $request");
            socket_close($c);
        });
    }
    await_all_or_fail($served);
    return "served " . count($served);
});

$ticker = new StallTicker();
$start = hrtime(true);
$clients = [];
for ($i = 0; $i < N; $i++) {
    $clients[] = spawn(function () use ($i, $port) {
        $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
        if (!socket_connect($s, '127.0.0.1', $port)) {
            return "connect failed";
        }
        socket_write($s, "request $i");
        // Half read with socket_read, half with socket_recv.
        if ($i % 2 == 0) {
            $reply = socket_read($s, 100);
        } else {
            $n = socket_recv($s, $reply, 100, 0);
        }
        $eof = socket_read($s, 100);
        socket_close($s);
        return $reply . ($eof === '' ? ', then EOF' : ', then ' . var_export($eof, true));
    });
}
$replies = await_all_or_fail($clients);
$elapsed = (hrtime(true) - $start) / 1e6;
$stall = $ticker->stop();
echo implode("\n", $replies), "\n";
echo await($server), "\n";
echo "overlapped: ", $elapsed < 5 * REPLY_DELAY_MS * $scale ? "yes" : "no ($elapsed ms)", "\n";
echo "stall under 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
echo "last error: ", socket_last_error(), "\n";
?>
--EXPECT--
reply to request 0, then EOF
reply to request 1, then EOF
reply to request 2, then EOF
reply to request 3, then EOF
reply to request 4, then EOF
reply to request 5, then EOF
reply to request 6, then EOF
reply to request 7, then EOF
reply to request 8, then EOF
reply to request 9, then EOF
served 10
overlapped: yes
stall under 50 ms: yes
last error: 0
