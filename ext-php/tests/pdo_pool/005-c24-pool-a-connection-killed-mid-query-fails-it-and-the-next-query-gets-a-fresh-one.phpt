--TEST--
PDO pool: a connection KILLed by the server while its query runs fails that query with PDO's usual PDOException, the coroutine's next query succeeds on a fresh connection, and the dead one is never lent again
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 2]);
$admin = services_pdo_mysql();
// This process's own query: the suites of several backends run at once on one server.
$sleep = 'SELECT SLEEP(5), ' . getmypid();
$victim = Async\spawn(function () use ($pdo, $sleep) {
    $id = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    try {
        $pdo->query($sleep);
        echo "not reached\n";
    } catch (PDOException $e) {
        echo "in flight: PDOException ", $e->errorInfo[1] ?? '?', "\n";
    }
    $again = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    echo "next query: ", $pdo->query('SELECT 40 + 2')->fetchColumn(), " on a ", $again !== $id ? "fresh" : "dead", " connection\n";
    return [$id, $again];
});
// The victim's connection, found by its running query.
$killed = null;
for ($k = 0; $k < 200 && $killed === null; $k++) {
    Async\delay(10);
    $killed = $admin->query("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = '$sleep'")->fetchColumn() ?: null;
}
$admin->exec("KILL $killed");
[$id, $again] = Async\await($victim);
echo "killed the victim's: ", (int) $killed === $id ? "yes" : "no", "\n";
// Other borrowers never see the killed connection.
$ids = Async\await_all_or_fail(array_map(fn($i) => Async\spawn(function () use ($pdo) {
    return (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
}), range(1, 4)));
echo "killed connection lent again: ", in_array($id, $ids, true) ? "yes" : "no", "\n";
?>
--EXPECTF--
in flight: PDOException %d
next query: 42 on a fresh connection
killed the victim's: yes
killed connection lent again: no
