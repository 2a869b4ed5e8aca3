--TEST--
C18: a pooled PDO pgsql object (PDO::ATTR_POOL_ENABLED, ATTR_POOL_MAX 4) serves eight coroutines running pg_sleep(0.2) in two rounds on four connections, each query cooperative through async_pgsql, and a connection terminated by the server is replaced
--EXTENSIONS--
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$admin = pdo_pgsql();
$pdo = pdo_pgsql([PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 4]);
$ticker = new StallTicker();
Async\await(Async\spawn(fn() => $pdo->query('SELECT 1'))); // one connection made
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 8; $i++) {
    $coroutines[] = Async\spawn(fn() => $pdo->query("SELECT pg_sleep(0.2), $i AS i, pg_backend_pid() AS pid")->fetch(PDO::FETCH_ASSOC));
}
$rows = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();
echo "results: ", implode(',', array_column($rows, 'i')), "\n";
echo "connections: ", count(array_unique(array_column($rows, 'pid'))), "\n";
echo "two rounds: ", $elapsed >= 0.38 && $elapsed < 0.9 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";

$sleep = 'SELECT pg_sleep(5), ' . getmypid(); // this process's: the suites of several backends run at once
$victim = Async\spawn(function () use ($pdo, $sleep) {
    $pid = $pdo->query('SELECT pg_backend_pid()')->fetchColumn();
    try {
        $pdo->query($sleep);
    } catch (PDOException $e) {
        echo "terminated: PDOException\n";
    }
    return [$pid, $pdo->query('SELECT pg_backend_pid()')->fetchColumn()];
});
$pid = null;
for ($k = 0; $k < 200 && !$pid; $k++) {
    Async\delay(10);
    $pid = $admin->query("SELECT pid FROM pg_stat_activity WHERE query = '$sleep' AND state = 'active'")->fetchColumn();
}
$admin->query("SELECT pg_terminate_backend($pid)");
[$before, $after] = Async\await($victim);
echo "next query on a fresh connection: ", $before !== $after ? "yes" : "no", "\n";
?>
--EXPECT--
results: 0,1,2,3,4,5,6,7
connections: 4
two rounds: yes
stall below 50 ms: yes
terminated: PDOException
next query on a fresh connection: yes
