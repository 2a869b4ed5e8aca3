--TEST--
C18: mysqli_poll in a coroutine waits for ten MYSQLI_ASYNC queries of 0.2 s on ten connections while others run: the replies are reaped in about the time of one, the scheduler never stalls, and the poll's timeout and reject array are PHP's
--EXTENSIONS--
mysqlnd
mysqli
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$scale = services_time_scale();
$links = [];
for ($i = 0; $i < 10; $i++) {
    $links[$i] = services_mysqli();
}
$idle = services_mysqli();

$ticker = new StallTicker();
$start = hrtime(true);
$got = await(spawn(function () use ($links, $idle) {
    foreach ($links as $i => $m) {
        $m->query("SELECT SLEEP(0.2) AS s, $i AS i", MYSQLI_ASYNC);
    }
    $pending = $links;
    $got = [];
    while ($pending) {
        $read = $error = $reject = $pending;
        if (!mysqli_poll($read, $error, $reject, 5)) {
            break;
        }
        foreach ($read as $m) {
            $got[] = (int) $m->reap_async_query()->fetch_assoc()['i'];
            unset($pending[array_search($m, $pending, true)]);
        }
    }
    sort($got);
    return $got;
}));
$elapsed = (hrtime(true) - $start) / 1e6;
$stall = $ticker->stop();
echo "replies: ", implode(',', $got), "\n";
echo "overlapped: ", $elapsed < 1000 * $scale ? "yes" : "no ($elapsed ms)", "\n";
echo "stall under 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";

// A query that outlasts the poll's timeout: 0 after it, then the reply.
$m = $links[0];
$m->query("SELECT SLEEP(0.3) AS s, 'late' AS w", MYSQLI_ASYNC);
$r = await(spawn(function () use ($m, $idle) {
    $read = $error = [$m, $idle];
    $reject = [];
    $start = hrtime(true);
    $n = mysqli_poll($read, $error, $reject, 0, 100000);
    $ms = (hrtime(true) - $start) / 1e6;
    $out = "timed out: $n, after the timeout: " . ($ms >= 90 && $ms < 3000 * services_time_scale() ? "yes" : "no ($ms ms)")
        . ", rejected: " . count($reject) . " (the idle one: " . var_export(($reject[0] ?? null) === $idle, true) . ")\n";
    $read = $error = [$m];
    $n = mysqli_poll($read, $error, $reject, 5);
    return $out . "then: $n, " . $m->reap_async_query()->fetch_assoc()['w'];
}));
echo $r, "\n";
?>
--EXPECT--
replies: 0,1,2,3,4,5,6,7,8,9
overlapped: yes
stall under 50 ms: yes
timed out: 0, after the timeout: yes, rejected: 1 (the idle one: true)
then: 1, late
