--TEST--
PDO pool: errorCode(), errorInfo(), lastInsertId(), inTransaction() and attributes set with setAttribute() answer for the calling coroutine's connection
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$t = pool_mysql_table('pool_ids', 'id INT AUTO_INCREMENT PRIMARY KEY, v INT');
$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 4, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$aInserted = $bDone = false;
$a = Async\spawn(function () use ($pdo, $t, &$aInserted, &$bDone) {
    echo "A before any query: ", var_export($pdo->errorCode(), true), "\n";
    $pdo->query('SELECT * FROM pool_no_such_table');
    $pdo->exec("INSERT INTO $t (v) VALUES (1)");
    $pdo->exec("INSERT INTO $t (v) VALUES (1)");
    $id = $pdo->lastInsertId();
    $pdo->setAttribute(PDO::ATTR_CASE, PDO::CASE_UPPER);
    $pdo->beginTransaction();
    $pdo->query('SELECT * FROM pool_no_such_table');
    $aInserted = true;
    while (!$bDone) {
        Async\delay(5); // B runs meanwhile
    }
    $error = [$pdo->errorCode(), $pdo->errorInfo()[1]];
    $row = $pdo->query('SELECT 1 AS lower_name')->fetch(PDO::FETCH_ASSOC);
    return [...$error, $id, $pdo->inTransaction(), array_keys($row)[0]];
});
$b = Async\spawn(function () use ($pdo, $t, &$aInserted, &$bDone) {
    while (!$aInserted) {
        Async\delay(5);
    }
    $pdo->exec("INSERT INTO $t (v) VALUES (2)");
    $id = $pdo->lastInsertId();
    $row = $pdo->query('SELECT 1 AS lower_name')->fetch(PDO::FETCH_ASSOC);
    $bDone = true;
    return [$pdo->errorCode(), $pdo->errorInfo()[1], $id, $pdo->inTransaction(), array_keys($row)[0]];
});
[$ra, $rb] = Async\await_all_or_fail([$a, $b]);
echo "A: ", json_encode($ra), "\n";
echo "B: ", json_encode($rb), "\n";
services_pdo_mysql()->exec("DROP TABLE $t");
?>
--EXPECT--
A before any query: '00000'
A: ["42S02",1146,"2",true,"LOWER_NAME"]
B: ["00000",null,"3",false,"lower_name"]
