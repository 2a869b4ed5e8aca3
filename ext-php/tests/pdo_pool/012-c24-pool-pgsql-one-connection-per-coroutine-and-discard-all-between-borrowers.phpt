--TEST--
PDO pool: pdo_pgsql (blocking without plugins/pgsql) still gives each coroutine a connection of its own, with transactions of their own, and a borrower's search_path, temporary table and open transaction are gone for the next borrower
--EXTENSIONS--
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$t = pool_name('pool_pg');
$setup = new PDO(pool_pgsql_dsn(), service_env('TASYNC_TEST_PGSQL_USER'), service_env('TASYNC_TEST_PGSQL_PASSWORD'));
$setup->exec("DROP TABLE IF EXISTS $t");
$setup->exec("CREATE TABLE $t (owner INT)");
$pdo = pool_pgsql([PDO::ATTR_POOL_MAX => 2]);
$inserted = 0;
$coroutines = [];
foreach ([0, 1] as $i) {
    $coroutines[] = Async\spawn(function () use ($pdo, $i, $t, &$inserted) {
        $pdo->beginTransaction();
        $pdo->exec("INSERT INTO $t VALUES ($i)");
        for ($inserted++; $inserted < 2; Async\delay(5));
        $seen = $pdo->query("SELECT owner FROM $t")->fetchAll(PDO::FETCH_COLUMN);
        $pid = $pdo->query('SELECT pg_backend_pid()')->fetchColumn();
        $i === 0 ? $pdo->commit() : $pdo->rollBack();
        return [$seen, $pid];
    });
}
$results = Async\await_all_or_fail($coroutines);
echo "each sees its own row: ", json_encode(array_column($results, 0)), "\n";
echo "two connections: ", $results[0][1] !== $results[1][1] ? "yes" : "no", "\n";
echo "committed: ", json_encode($setup->query("SELECT owner FROM $t")->fetchAll(PDO::FETCH_COLUMN)), "\n";

$one = pool_pgsql([PDO::ATTR_POOL_MAX => 1]);
$first = Async\spawn(function () use ($one, $t) {
    $one->exec('SET search_path TO pg_catalog');
    $one->exec('CREATE TEMP TABLE pool_tmp (x INT)');
    $one->beginTransaction();
    $one->exec("INSERT INTO public.$t VALUES (9)");
    return $one->query('SELECT pg_backend_pid()')->fetchColumn();
});
$pid1 = Async\await($first);
$second = Async\spawn(function () use ($one) {
    $pid = $one->query('SELECT pg_backend_pid()')->fetchColumn();
    $path = $one->query('SHOW search_path')->fetchColumn();
    $tmp = $one->query("SELECT COUNT(*) FROM pg_tables WHERE tablename = 'pool_tmp'")->fetchColumn();
    return [$pid, $path, $tmp, $one->inTransaction()];
});
[$pid2, $path, $tmp, $in] = Async\await($second);
echo "same connection: ", $pid1 === $pid2 ? "yes" : "no", "\n";
echo "search_path: $path, temporary tables: $tmp, in transaction: ", var_export($in, true), "\n";
echo "the open transaction rolled back: ", $setup->query("SELECT COUNT(*) FROM $t WHERE owner = 9")->fetchColumn() == 0 ? "yes" : "no", "\n";
$setup->exec("DROP TABLE $t");
?>
--EXPECT--
each sees its own row: [[0],[1]]
two connections: yes
committed: [0]
same connection: yes
search_path: "$user", public, temporary tables: 0, in transaction: false
the open transaction rolled back: yes
