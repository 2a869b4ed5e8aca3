--TEST--
C18: ten PDO pgsql queries of pg_sleep(0.2) in ten coroutines take about the time of one, with correct results, and the scheduler never stalls
--EXTENSIONS--
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$dbs = [];
for ($i = 0; $i < 10; $i++) {
    $dbs[] = pdo_pgsql();
}
$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i, $dbs) {
        $db = $dbs[$i];
        $st = $db->prepare("SELECT pg_sleep(0.2)::text AS s, ?::int AS i");
        $st->execute([$i]);
        return $st->fetch(PDO::FETCH_ASSOC);
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
