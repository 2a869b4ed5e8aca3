--TEST--
Rule C18: stream_socket_recvfrom on a UDP socket honours stream_set_timeout (a datagram that never comes ends the wait: false, timed_out in the meta data) while others run, and a datagram another coroutine sends in time is received
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$scale = services_time_scale();
$server = stream_socket_server("udp://127.0.0.1:0", $errno, $errstr, STREAM_SERVER_BIND);
$address = stream_socket_get_name($server, false);
stream_set_timeout($server, 0, 100000);
$ticks = 0;
$ticking = true;
$ticker = spawn(function () use (&$ticks, &$ticking) {
    while ($ticking) {
        Async\delay(1);
        $ticks++;
    }
});
$start = hrtime(true);
$r = await(spawn(fn() => stream_socket_recvfrom($server, 100, 0, $peer)));
$ms = (hrtime(true) - $start) / 1e6;
echo "nothing came: ", var_export($r, true), ", after the timeout: ", $ms >= 90 && $ms < 3000 * $scale ? "yes" : "no ($ms ms)",
    ", timed_out: ", var_export(stream_get_meta_data($server)['timed_out'], true), "\n";

stream_set_timeout($server, 5);
spawn(function () use ($address) {
    Async\delay(20);
    $c = stream_socket_client("udp://$address");
    fwrite($c, "in time");
});
$r = await(spawn(fn() => stream_socket_recvfrom($server, 100, 0, $peer)));
echo "received: $r, timed_out: ", var_export(stream_get_meta_data($server)['timed_out'], true), "\n";
$ticking = false;
await($ticker);
echo "the ticker ran meanwhile: ", $ticks > 10 ? "yes" : "no ($ticks)", "\n";
?>
--EXPECT--
nothing came: false, after the timeout: yes, timed_out: true
received: in time, timed_out: false
the ticker ran meanwhile: yes
