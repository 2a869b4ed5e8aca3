--TEST--
Rule C18: SO_RCVTIMEO set with socket_set_option bounds socket_read, socket_recv, socket_recvfrom and socket_accept, and SO_SNDTIMEO bounds socket_write to a peer that does not read; each fails as PHP's blocking call does (false, EAGAIN, no warning) while others run
--EXTENSIONS--
sockets
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$scale = services_time_scale();
$ticks = 0;
$ticking = true;
$ticker = spawn(function () use (&$ticks, &$ticking) {
    while ($ticking) {
        Async\delay(1);
        $ticks++;
    }
});

function timed(string $what, callable $call): void
{
    global $scale;
    $start = hrtime(true);
    $r = $call();
    $ms = (hrtime(true) - $start) / 1e6;
    $err = socket_last_error();
    echo "$what: ", var_export($r, true), ", error ", $err === SOCKET_EAGAIN ? "EAGAIN" : $err,
        ", after the timeout: ", $ms >= 90 && $ms < 3000 * $scale ? "yes" : "no ($ms ms)", "\n";
    socket_clear_error();
}

$result = await(spawn(function () {
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
    [$a, $b] = $pair;
    socket_set_option($a, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 100000]);
    timed("socket_read", fn() => socket_read($a, 10));
    timed("socket_recv", fn() => socket_recv($a, $buf, 10, 0));

    $udp = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
    socket_bind($udp, '127.0.0.1', 0);
    socket_set_option($udp, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 100000]);
    timed("socket_recvfrom", fn() => socket_recvfrom($udp, $buf, 10, 0, $from, $port));

    $listener = socket_create_listen(0);
    socket_set_option($listener, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 100000]);
    timed("socket_accept", fn() => socket_accept($listener));

    // The peer reads nothing: the first write fills the buffers and
    // returns what it sent once SO_SNDTIMEO passes, the next sends nothing.
    socket_set_option($b, SOL_SOCKET, SO_SNDTIMEO, ['sec' => 0, 'usec' => 100000]);
    $big = str_repeat('x', 8 << 20);
    $start = hrtime(true);
    $n = socket_write($b, $big);
    echo "first socket_write sent part: ", is_int($n) && $n > 0 && $n < strlen($big) ? "yes" : var_export($n, true), "\n";
    timed("next socket_write", fn() => socket_write($b, $big));

    // Data that arrives in time is read.
    spawn(function () use ($a) { Async\delay(20); socket_write($a, "in time"); });
    socket_set_option($b, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 5, 'usec' => 0]);
    return socket_read($b, 100);
}));
echo "read in time: $result\n";
$ticking = false;
await($ticker);
echo "the ticker ran meanwhile: ", $ticks > 20 ? "yes" : "no ($ticks)", "\n";
?>
--EXPECT--
socket_read: false, error EAGAIN, after the timeout: yes
socket_recv: false, error EAGAIN, after the timeout: yes
socket_recvfrom: false, error EAGAIN, after the timeout: yes
socket_accept: false, error EAGAIN, after the timeout: yes
first socket_write sent part: yes
next socket_write: false, error EAGAIN, after the timeout: yes
read in time: in time
the ticker ran meanwhile: yes
