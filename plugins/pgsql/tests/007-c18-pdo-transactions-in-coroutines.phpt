--TEST--
C18: PDO transactions of several coroutines, each on its own connection, interleave at their queries; commits, rollbacks and a failed commit are each connection's own
--EXTENSIONS--
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

/* Suites on other backends run this test at the same time: a table each. */
$table = "apg_tx_" . getmypid();
$setup = pdo_pgsql();
$setup->exec("DROP TABLE IF EXISTS $table");
$setup->exec("CREATE TABLE $table (who text, n int, UNIQUE (who, n) DEFERRABLE INITIALLY DEFERRED)");

$log = [];
$work = function (string $who, string $end) use (&$log, $table) {
    $db = pdo_pgsql();
    $db->beginTransaction();
    $log[] = "$who begins";
    for ($i = 0; $i < 3; $i++) {
        $db->exec("INSERT INTO $table VALUES ('$who', " . ($end === 'conflict' ? 1 : $i) . ")");
        $db->query("SELECT pg_sleep(0.05)");
        $log[] = "$who row $i";
    }
    $seen = $db->query("SELECT count(*) FROM $table WHERE who = '$who'")->fetchColumn();
    try {
        $end === 'rollback' ? $db->rollBack() : $db->commit();
        $log[] = "$who {$end}s";
    } catch (PDOException $e) {
        $log[] = "$who commit fails: " . $e->getCode();
    }
    return "$who saw $seen rows of its own in its transaction, in transaction after: " . var_export($db->inTransaction(), true);
};

$results = Async\await_all_or_fail([
    Async\spawn($work, 'a', 'commit'),
    Async\spawn($work, 'b', 'rollback'),
    Async\spawn($work, 'c', 'conflict'),
]);
echo implode("\n", $results), "\n";
echo "interleaved: ", array_search('b begins', $log) < array_search('a commits', $log) ? "yes" : "no", "\n";
sort($log);
echo implode("\n", $log), "\n";
echo "committed: ", json_encode($setup->query("SELECT who, n FROM $table ORDER BY who, n")->fetchAll(PDO::FETCH_NUM)), "\n";
$setup->exec("DROP TABLE $table");
?>
--EXPECT--
a saw 3 rows of its own in its transaction, in transaction after: false
b saw 3 rows of its own in its transaction, in transaction after: false
c saw 3 rows of its own in its transaction, in transaction after: false
interleaved: yes
a begins
a commits
a row 0
a row 1
a row 2
b begins
b rollbacks
b row 0
b row 1
b row 2
c begins
c commit fails: 23505
c row 0
c row 1
c row 2
committed: [["a",0],["a",1],["a",2]]
