--TEST--
Rule C18: socket_close() of a socket another coroutine waits on in socket_select() ends that select: it fails with EBADF (false, PHP's warning for a failed select, socket_last_error() EBADF, the arrays as given), as select(2) fails on a closed descriptor, instead of waiting for an event that can no longer come
--EXTENSIONS--
sockets
--FILE--
<?php
use function Async\spawn;
use function Async\await;

// The socket in the read set next to one that stays quiet; then in the
// write set, full (never writable). (No except set: libev does not watch
// for out-of-band data, so a select with one blocks there as PHP's.)
$cases = [
    'read' => function ($a, $quiet) { return [[$quiet, $a], null, null]; },
    'write' => function ($a, $quiet) {
        socket_set_nonblock($a);
        while (@socket_write($a, str_repeat('x', 65536)) !== false);
        socket_set_block($a);
        return [[$quiet], [$a], null];
    },
];
// The close comes before the select's wait has begun, and while it waits.
foreach ([0, 50] as $after) foreach ($cases as $name => $sets) {
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $other);
    [$a, $b] = $pair;
    [$r, $w, $e] = $sets($a, $other[0]);
    $given = [$r, $w, $e];
    $selector = spawn(function () use (&$r, &$w, &$e, $name) {
        // Without the wake-up it would end only here, after 5 s, with 0.
        $n = socket_select($r, $w, $e, 5);
        echo "$name select returned "; var_dump($n);
        var_dump(socket_last_error() === SOCKET_EBADF);
    });
    $closer = spawn(function () use ($a, $after) {
        if ($after) {
            Async\delay($after);
        }
        echo "closing\n";
        socket_close($a);
        echo "closed\n";
    });
    $start = hrtime(true);
    await($closer);
    await($selector);
    $ms = (hrtime(true) - $start) / 1e6;
    echo "ended before the timeout: ", $ms < 4000 ? "yes" : "no ($ms ms)", "\n";
    echo "arrays as given: ", var_export([$r, $w, $e] === $given, true), "\n";
    // The peer sees the connection closed.
    socket_set_nonblock($b);
    while (($got = socket_read($b, 65536)) !== '' && $got !== false);
    var_dump($got);
}
?>
--EXPECTF--
closing
closed

Warning: socket_select(): Unable to select [%d]: %s in %s on line %d
read select returned bool(false)
bool(true)
ended before the timeout: yes
arrays as given: true
string(0) ""
closing
closed

Warning: socket_select(): Unable to select [%d]: %s in %s on line %d
write select returned bool(false)
bool(true)
ended before the timeout: yes
arrays as given: true
string(0) ""
closing
closed

Warning: socket_select(): Unable to select [%d]: %s in %s on line %d
read select returned bool(false)
bool(true)
ended before the timeout: yes
arrays as given: true
string(0) ""
closing
closed

Warning: socket_select(): Unable to select [%d]: %s in %s on line %d
write select returned bool(false)
bool(true)
ended before the timeout: yes
arrays as given: true
string(0) ""
