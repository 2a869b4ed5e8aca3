--TEST--
Rule C18: socket_recvfrom waits in a coroutine for datagrams another coroutine sends with socket_sendto, and answers the sender; others run meanwhile
--EXTENSIONS--
sockets
--FLAKY--
The ticker's count depends on how often the scheduler gets the CPU; another process on a 2-CPU machine can starve it (one retry, as run-tests.php gives every timing test).
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
socket_bind($server, '127.0.0.1', 0);
socket_getsockname($server, $addr, $port);

$ticks = 0;
$ticking = true;
$ticker = spawn(function () use (&$ticks, &$ticking) {
    while ($ticking) {
        Async\delay(1);
        $ticks++;
    }
});

$echo = spawn(function () use ($server) {
    $log = [];
    for ($i = 0; $i < 2; $i++) {
        $n = socket_recvfrom($server, $buf, 100, 0, $from, $fromPort);
        $log[] = "got $n bytes: $buf from " . ($from === '127.0.0.1' && $fromPort > 0 ? 'the client' : "$from:$fromPort");
        socket_sendto($server, strtoupper($buf), strlen($buf), 0, $from, $fromPort);
    }
    return implode("\n", $log);
});
$client = spawn(function () use ($port) {
    $c = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
    socket_bind($c, '127.0.0.1', 0);
    $replies = [];
    foreach (['first', 'second'] as $word) {
        Async\delay(50);
        socket_sendto($c, $word, strlen($word), 0, '127.0.0.1', $port);
        socket_recvfrom($c, $reply, 100, 0, $from, $fromPort);
        $replies[] = $reply;
    }
    return implode(", ", $replies);
});
echo await($echo), "\n", await($client), "\n";
$ticking = false;
await($ticker);
echo "the ticker ran meanwhile: ", $ticks > 3 ? "yes" : "no ($ticks)", "\n";
?>
--EXPECT--
got 5 bytes: first from the client
got 6 bytes: second from the client
FIRST, SECOND
the ticker ran meanwhile: yes
