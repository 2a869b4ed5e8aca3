--TEST--
PDO pool: a PDOStatement keeps the connection it was prepared on until it is destroyed, also after its coroutine ended; meanwhile that connection still counts against ATTR_POOL_MAX (with MAX 2 the other coroutines share the one connection left, the server never sees a third), and once the statement is destroyed the connection comes back to the pool, reset, and is lent again
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
// The queries carry a token of this run: other processes may use the server.
$token = 'pool006_' . getmypid() . '_' . mt_rand();
$observer = services_pdo_mysql();
$running = fn() => (int) $observer->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%/* $token */ SLEEP%' AND ID <> CONNECTION_ID()")->fetchColumn();

$maker = Async\spawn(function () use ($pdo) {
    $pdo->exec("SET @owner = 'maker'");
    return [$pdo->prepare('SELECT @owner, CONNECTION_ID(), ?'), (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()];
});
[$st, $makerId] = Async\await($maker);

// Four coroutines at once while the statement lives: one connection is left for them.
$borrow = function (float $seconds) use ($pdo, $token) {
    return Async\spawn(function () use ($pdo, $token, $seconds) {
        $row = $pdo->query("SELECT /* $token */ SLEEP($seconds), CONNECTION_ID(), @owner")->fetch(PDO::FETCH_NUM);
        return [(int) $row[1], $row[2]];
    });
};
$peak = 0;
$watch = Async\spawn(function () use ($running, &$peak) {
    for ($k = 0; $k < 8; $k++) {
        Async\delay(50);
        $peak = max($peak, $running());
    }
});
$ids = array_column(Async\await_all_or_fail([$borrow(0.1), $borrow(0.1), $borrow(0.1), $borrow(0.1)]), 0);
Async\await($watch);
echo "others while the statement lives: on one connection: ", count(array_unique($ids)) === 1 ? "yes" : "no", ", not the statement's: ",
    in_array($makerId, $ids, true) ? "no" : "yes", ", at most one query at once: ", $peak <= 1 ? "yes" : "no ($peak)", "\n";
$otherId = $ids[0];
$seen = array_unique(array_merge([$makerId], $ids));
echo "server connections of the pool: ", count($seen), "\n";

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
// Two at once now: the statement's connection is back, reset, and one of them gets it.
$rows = Async\await_all_or_fail([$borrow(0.1), $borrow(0.1)]);
$ids = array_column($rows, 0);
sort($ids);
$pair = [$makerId, $otherId];
sort($pair);
echo "after the statement: the same two connections: ", $ids === $pair ? "yes" : "no (" . implode(',', $ids) . " vs " . implode(',', $pair) . ")", "\n";
$owners = array_column($rows, 1);
echo "session state reset between borrowers: ", $owners === [null, null] ? "yes" : "no (" . implode(',', $owners) . ")", "\n";
echo "the maker's connection still open: ",
    $observer->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $makerId")->fetchColumn() == 1 ? "yes" : "no", "\n";
?>
--EXPECT--
others while the statement lives: on one connection: yes, not the statement's: yes, at most one query at once: yes
server connections of the pool: 2
statement after its coroutine: owner=maker, same connection: yes, arg=1
in another coroutine: owner=maker, same connection: yes, arg=2
after the statement: the same two connections: yes
session state reset between borrowers: yes
the maker's connection still open: yes
