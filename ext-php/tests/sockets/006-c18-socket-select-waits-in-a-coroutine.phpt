--TEST--
Rule C18: socket_select in a coroutine waits for readable and writable sockets while others run, returns PHP's counts and arrays, honours its timeout, and fails as PHP's when cancelled
--EXTENSIONS--
sockets
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$scale = services_time_scale();
socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p1);
socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p2);

$ticks = 0;
$ticking = true;
$ticker = spawn(function () use (&$ticks, &$ticking) {
    while ($ticking) {
        Async\delay(1);
        $ticks++;
    }
});

// Data arrives on the second pair only.
spawn(function () use ($p2) { Async\delay(30); socket_write($p2[1], "x"); });
$r = [$p1[0], $p2[0]];
$w = $e = null;
$n = await(spawn(function () use (&$r, &$w, &$e) { return socket_select($r, $w, $e, 5); }));
echo "readable: $n, the second: ", var_export(count($r) === 1 && ($r[1] ?? null) === $p2[0], true), "\n";

// A writable socket is ready at once; the keys are kept as PHP keeps them.
$r = null;
$w = ['a' => $p1[0]];
echo "writable: ", socket_select($r, $w, $e, 5), ", keys ", implode(',', array_keys($w)), "\n";

// The timeout: 0 and the arrays emptied.
$r = [$p1[0]];
$w = null;
$start = hrtime(true);
$n = await(spawn(function () use (&$r, &$w, &$e) { return socket_select($r, $w, $e, 0, 100000); }));
$ms = (hrtime(true) - $start) / 1e6;
echo "timeout: $n, ", count($r), " left, after the timeout: ", $ms >= 90 && $ms < 3000 * $scale ? "yes" : "no ($ms ms)", "\n";

// Cancelled: false with PHP's warning for a failed select.
$waiter = spawn(function () use ($p1) {
    $r = [$p1[0]];
    $w = $e = null;
    $n = socket_select($r, $w, $e, null);
    echo "cancelled select: ", var_export($n, true), "\n";
});
spawn(function () use ($waiter) { Async\delay(20); $waiter->cancel(); });
try {
    await($waiter);
} catch (Async\CancellationError $e) {
    echo "the waiter was cancelled\n";
}
$ticking = false;
await($ticker);
echo "the ticker ran meanwhile: ", $ticks > 20 ? "yes" : "no ($ticks)", "\n";
?>
--EXPECTF--
readable: 1, the second: true
writable: 1, keys a
timeout: 0, 0 left, after the timeout: yes

Warning: socket_select(): Unable to select [%d]: %s in %s on line %d
cancelled select: false
the waiter was cancelled
the ticker ran meanwhile: yes
