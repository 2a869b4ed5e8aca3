--TEST--
C18: ten mysqli queries of 0.2 s in ten coroutines take about the time of one, and the scheduler never stalls
--EXTENSIONS--
mysqlnd
mysqli
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i) {
        $db = services_mysqli();
        $row = $db->query("SELECT SLEEP(0.2) AS s, $i AS i")->fetch_assoc();
        $db->close();
        return $row;
    });
}
$rows = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

echo "results: ", implode(',', array_map(fn($r) => $r['s'] . ':' . $r['i'], $rows)), "\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: 0:0,0:1,0:2,0:3,0:4,0:5,0:6,0:7,0:8,0:9
overlapped: yes
stall below 50 ms: yes
