--TEST--
PDO pool: the PDO object destroyed while coroutines hold its connections: their statements go on working on them, and every connection is closed once its holders are done
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
$ids = [];
$count = function () use ($admin, &$ids) {
    return (int) $admin->query('SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID IN (' . implode(',', $ids) . ')')->fetchColumn();
};

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 2]);
$weak = WeakReference::create($pdo);
$prepared = 0;
$holders = [];
for ($i = 0; $i < 2; $i++) {
    // The coroutines keep no reference to the object: only their statements.
    $holders[] = Async\spawn(function () use ($weak, $i, &$prepared, &$ids) {
        $ids[] = (int) $weak->get()->query('SELECT CONNECTION_ID()')->fetchColumn();
        $st = $weak->get()->prepare('SELECT SLEEP(0.2), ?');
        for ($prepared++; $prepared < 3; Async\delay(5)); // until the object is gone
        $st->execute([$i]);
        return $st->fetch(PDO::FETCH_NUM)[1];
    });
}
while ($prepared < 2) {
    Async\delay(5);
}
echo "connections while held: ", $count(), "\n";
$pdo = null; // the object goes while both connections are lent
echo "object gone: ", $weak->get() === null ? "yes" : "no", "\n";
$prepared++;
echo "holders: ", implode(',', Async\await_all_or_fail($holders)), "\n";
for ($k = 0; $k < 100 && $count() > 0; $k++) {
    Async\delay(20);
}
echo "connections after: ", $count(), "\n";
?>
--EXPECTF--
connections while held: 2
object gone: yes
holders: 0,1
connections after: 0
