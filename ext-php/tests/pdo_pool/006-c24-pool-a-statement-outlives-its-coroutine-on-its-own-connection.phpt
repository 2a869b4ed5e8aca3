--TEST--
PDO pool: a PDOStatement keeps the connection it was prepared on until it is destroyed, also after its coroutine ended; the next borrower gets another connection meanwhile, and the pool never lends the statement's connection while the statement lives
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 1]);
$maker = Async\spawn(function () use ($pdo) {
    $pdo->exec("SET @owner = 'maker'");
    return [$pdo->prepare('SELECT @owner, CONNECTION_ID(), ?'), (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()];
});
[$st, $makerId] = Async\await($maker);
// Another coroutine borrows while the statement lives.
$other = Async\spawn(fn() => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn());
$otherId = Async\await($other);
echo "other borrower on another connection: ", $otherId !== $makerId ? "yes" : "no", "\n";
// The statement, used from the main flow and from a new coroutine.
$st->execute([1]);
[$owner, $conn, $arg] = $st->fetchAll(PDO::FETCH_NUM)[0];
echo "statement after its coroutine: owner=$owner, same connection: ", (int) $conn === $makerId ? "yes" : "no", ", arg=$arg\n";
$user = Async\spawn(function () use ($st) {
    $st->execute([2]);
    return $st->fetchAll(PDO::FETCH_NUM)[0];
});
[$owner, $conn, $arg] = Async\await($user);
echo "in another coroutine: owner=$owner, same connection: ", (int) $conn === $makerId ? "yes" : "no", ", arg=$arg\n";
// The last references: ours, and the coroutines' (their results, their closures).
unset($st, $maker, $user);
// Gone with its statement: the maker's connection is closed.
$admin = services_pdo_mysql();
$gone = fn() => $admin->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $makerId")->fetchColumn() == 0;
for ($k = 0; $k < 100 && !$gone(); $k++) {
    Async\delay(20);
}
echo "maker's connection closed with its statement: ",
    $admin->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $makerId")->fetchColumn() == 0 ? "yes" : "no", "\n";
?>
--EXPECT--
other borrower on another connection: yes
statement after its coroutine: owner=maker, same connection: yes, arg=1
in another coroutine: owner=maker, same connection: yes, arg=2
maker's connection closed with its statement: yes
