--TEST--
PDO pool: ten coroutines each open a transaction on the same PDO object, see only their own rows while the others' are open, half commit and half roll back, and the table ends with exactly the committed rows
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$t = pool_mysql_table('pool_txn', 'owner INT NOT NULL, n INT NOT NULL');
$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 10]);
$inserted = $read = 0;
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($pdo, $i, $t, &$inserted, &$read) {
        $pdo->beginTransaction();
        $in = $pdo->inTransaction();
        $st = $pdo->prepare("INSERT INTO $t (owner, n) VALUES (?, ?)");
        for ($n = 0; $n < 3; $n++) {
            $st->execute([$i, $n]);
        }
        // Every transaction is open at once while each one reads.
        for ($inserted++; $inserted < 10; Async\delay(5));
        $visible = $pdo->query("SELECT owner, COUNT(*) FROM $t GROUP BY owner")->fetchAll(PDO::FETCH_KEY_PAIR);
        for ($read++; $read < 10; Async\delay(5));
        if ($i % 2 === 0) {
            $pdo->commit();
        } else {
            $pdo->rollBack();
        }
        return [$in, $visible, $pdo->inTransaction()];
    });
}
$results = Async\await_all_or_fail($coroutines);
foreach ($results as $i => [$in, $visible, $after]) {
    $own = $visible == [$i => 3] ? "only its own 3 rows" : json_encode($visible);
    printf("%d: in transaction %s, sees %s, after %s\n", $i, var_export($in, true), $own, var_export($after, true));
}
$final = services_pdo_mysql()->query("SELECT owner, COUNT(*) FROM $t GROUP BY owner ORDER BY owner")->fetchAll(PDO::FETCH_KEY_PAIR);
echo "committed: ", json_encode($final), "\n";
services_pdo_mysql()->exec("DROP TABLE $t");
?>
--EXPECT--
0: in transaction true, sees only its own 3 rows, after false
1: in transaction true, sees only its own 3 rows, after false
2: in transaction true, sees only its own 3 rows, after false
3: in transaction true, sees only its own 3 rows, after false
4: in transaction true, sees only its own 3 rows, after false
5: in transaction true, sees only its own 3 rows, after false
6: in transaction true, sees only its own 3 rows, after false
7: in transaction true, sees only its own 3 rows, after false
8: in transaction true, sees only its own 3 rows, after false
9: in transaction true, sees only its own 3 rows, after false
committed: {"0":3,"2":3,"4":3,"6":3,"8":3}
