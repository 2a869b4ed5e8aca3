--TEST--
PDO pool: the PDO object destroyed while statements that outlived their coroutines hold its connections: the statements go on working, a connection closes when its last statement is destroyed, and one still held when the script ends goes with it
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$admin = services_pdo_mysql();
$open = fn(int $id) => (int) $admin->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $id")->fetchColumn();

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 2]);
$make = fn() => Async\spawn(fn() => [$pdo->prepare('SELECT CONNECTION_ID(), ?'), (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()]);
[$first, $firstId] = Async\await($make());
[$kept, $keptId] = Async\await($make());
echo "two connections, both held by statements: ", $firstId !== $keptId && $open($firstId) && $open($keptId) ? "yes" : "no", "\n";
unset($make);
$pdo = null;
$first->execute([1]);
$kept->execute([2]);
echo "statements after the object went: ", implode(',', array_map(fn($s) => implode(':', $s->fetch(PDO::FETCH_NUM)), [$first, $kept])) === "$firstId:1,$keptId:2" ? "work" : "fail", "\n";
$first = null;
for ($k = 0; $k < 100 && $open($firstId); $k++) {
    Async\delay(20);
}
echo "the first connection closed with its statement: ", $open($firstId) ? "no" : "yes", "\n";
echo "the other still open: ", $open($keptId) ? "yes" : "no", "\n";
// $kept lives until the end of the script.
?>
--EXPECT--
two connections, both held by statements: yes
statements after the object went: work
the first connection closed with its statement: yes
the other still open: yes
