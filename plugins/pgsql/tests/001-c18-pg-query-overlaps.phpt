--TEST--
C18: ten pg_query() of pg_sleep(0.2) in ten coroutines take about the time of one, with correct results, and the scheduler never stalls
--EXTENSIONS--
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$links = [];
for ($i = 0; $i < 10; $i++) {
    $links[] = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
}
$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i, $links) {
        $r = pg_query($links[$i], "SELECT pg_sleep(0.2) AS s, $i AS i");
        return pg_fetch_assoc($r);
    });
}
$rows = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

echo "results: ", implode(',', array_map(fn($r) => $r['s'] . ':' . $r['i'], $rows)), "\n";
echo "overlapped: ", $elapsed < 0.5 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: :0,:1,:2,:3,:4,:5,:6,:7,:8,:9
overlapped: yes
stall below 50 ms: yes
