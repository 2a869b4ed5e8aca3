--TEST--
Waiting in the reactor longer than async.stall_timeout (a delay, a socket read) and ordinary work that yields often produce no stall warning
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
$timeout = 0.5 * min(services_time_scale(), 2.0);
ini_set('async.stall_timeout', (string) $timeout);
$ms = (int) ($timeout * 1000);

function burn(float $ms): void {
    $end = hrtime(true) + (int) ($ms * 1e6);
    while (hrtime(true) < $end);
}

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$coroutines = [
    Async\spawn(function () use ($ms) { Async\delay(3 * $ms); return "slept"; }),
    Async\spawn(function () use ($a) { return "read " . fread($a, 10); }),
    Async\spawn(function () use ($b, $ms) { Async\delay(2 * $ms); fwrite($b, "late"); return "wrote"; }),
];
// Ordinary work: three coroutines computing a little between yields, for
// several timeouts in all.
$end = hrtime(true) + 3 * $ms * 1000000;
for ($i = 0; $i < 3; $i++) {
    $coroutines[] = Async\spawn(function () use ($end) {
        $rounds = 0;
        while (hrtime(true) < $end) {
            burn(2);
            Async\suspend();
            $rounds++;
        }
        return $rounds > 0 ? "worked" : "did not work";
    });
}
foreach ($coroutines as $co) {
    echo Async\await($co), "\n";
}
?>
--EXPECT--
slept
read late
wrote
worked
worked
worked
