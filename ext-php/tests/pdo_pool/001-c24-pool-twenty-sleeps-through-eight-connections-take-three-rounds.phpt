--TEST--
PDO pool: 20 coroutines each running SELECT SLEEP(0.2) through one PDO object with ATTR_POOL_MAX 8 finish in about three rounds, with correct results, on at most 8 server connections
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 8]);
var_dump($pdo->getAttribute(PDO::ATTR_POOL_ENABLED), $pdo->getAttribute(PDO::ATTR_POOL_MIN),
    $pdo->getAttribute(PDO::ATTR_POOL_MAX));

// The queries carry a token of this run: other processes may use the server.
$token = 'pool001_' . getmypid() . '_' . mt_rand();
$peak = 0;
$observer = services_pdo_mysql();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 20; $i++) {
    $coroutines[] = Async\spawn(function () use ($pdo, $i, $token) {
        $st = $pdo->prepare("SELECT /* $token */ SLEEP(0.2) AS s, ? AS i, CONNECTION_ID() AS c");
        $st->execute([$i]);
        return $st->fetch(PDO::FETCH_ASSOC);
    });
}
$watch = Async\spawn(function () use ($observer, $token, &$peak) {
    for ($k = 0; $k < 6; $k++) {
        Async\delay(100);
        $n = (int) $observer->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%/* $token */ SLEEP%' AND ID <> CONNECTION_ID()")->fetchColumn();
        $peak = max($peak, $n);
    }
});
$rows = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
Async\await($watch);
$scale = services_time_scale();

echo "results: ", implode(',', array_map(fn($r) => $r['s'] . ':' . $r['i'], $rows)), "\n";
echo "connections used: ", count(array_unique(array_column($rows, 'c'))), "\n";
echo "queries running at once on the server: at most 8: ", $peak <= 8 && $peak > 0 ? "yes" : "no ($peak)", "\n";
echo "about three rounds: ", $elapsed >= 0.55 && $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
?>
--EXPECT--
bool(true)
int(0)
int(8)
results: 0:0,0:1,0:2,0:3,0:4,0:5,0:6,0:7,0:8,0:9,0:10,0:11,0:12,0:13,0:14,0:15,0:16,0:17,0:18,0:19
connections used: 8
queries running at once on the server: at most 8: yes
about three rounds: yes
