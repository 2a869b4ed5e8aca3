--TEST--
PDO pool: what a borrower left on its connection (a user variable, a session variable, a temporary table, the current database, a transaction left open, an attribute) is gone for the next borrower of the same connection, and the open transaction was rolled back
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$t = pool_mysql_table('pool_leak', 'v INT');
$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 1]);
$first = Async\spawn(function () use ($pdo, $t) {
    $pdo->exec("SET @borrower = 'first', SESSION sql_mode = 'ANSI_QUOTES', SESSION wait_timeout = 77");
    $pdo->exec('CREATE TEMPORARY TABLE pool_tmp (x INT)');
    $pdo->exec('USE information_schema');
    $pdo->beginTransaction();
    $pdo->exec('INSERT INTO ' . service_env('TASYNC_TEST_MYSQL_DB') . ".$t VALUES (1)");
    return (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    // ends with the transaction open
});
$id1 = Async\await($first);
$second = Async\spawn(function () use ($pdo) {
    $id = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    $vars = $pdo->query("SELECT @borrower, @@SESSION.sql_mode LIKE '%ANSI_QUOTES%', @@SESSION.wait_timeout = 77, DATABASE()")->fetch(PDO::FETCH_NUM);
    try {
        $pdo->query('SELECT * FROM pool_tmp');
        $tmp = 'still there';
    } catch (PDOException $e) {
        $tmp = 'gone';
    }
    return [$id, $vars, $tmp, $pdo->inTransaction()];
});
[$id2, $vars, $tmp, $in] = Async\await($second);
echo "same connection: ", $id1 === $id2 ? "yes" : "no", "\n";
echo "user variable: ", var_export($vars[0], true), "\n";
echo "sql_mode kept: ", $vars[1], ", wait_timeout kept: ", $vars[2], "\n";
echo "database: ", $vars[3] === service_env('TASYNC_TEST_MYSQL_DB') ? "the DSN's" : $vars[3], "\n";
echo "temporary table: $tmp\n";
echo "in transaction: ", var_export($in, true), "\n";
echo "rows left by the open transaction: ", services_pdo_mysql()->query("SELECT COUNT(*) FROM $t")->fetchColumn(), "\n";

// An attribute set in a coroutine stays with that coroutine's connection.
$third = Async\spawn(function () use ($pdo) {
    $pdo->setAttribute(PDO::ATTR_CASE, PDO::CASE_UPPER);
    return array_keys($pdo->query('SELECT 1 AS x')->fetch(PDO::FETCH_ASSOC))[0];
});
$fourth = Async\spawn(function () use ($pdo) {
    return array_keys($pdo->query('SELECT 1 AS x')->fetch(PDO::FETCH_ASSOC))[0];
});
echo "attribute: ", Async\await($third), " then ", Async\await($fourth), "\n";
services_pdo_mysql()->exec("DROP TABLE $t");
?>
--EXPECT--
same connection: yes
user variable: NULL
sql_mode kept: 0, wait_timeout kept: 0
database: the DSN's
temporary table: gone
in transaction: false
rows left by the open transaction: 0
attribute: X then x
