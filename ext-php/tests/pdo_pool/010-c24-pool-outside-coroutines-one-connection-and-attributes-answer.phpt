--TEST--
PDO pool: outside coroutines (no runtime yet) the pooled object behaves as one connection, getAttribute(ATTR_POOL_*) answers (false and the defaults on an object without the pool), attributes set outside coroutines reach every pooled connection, and the pool's first connection is the one made by the constructor
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

var_dump(PDO::ATTR_POOL_ENABLED, PDO::ATTR_POOL_MIN, PDO::ATTR_POOL_MAX, PDO::ATTR_POOL_HEALTHCHECK_INTERVAL);
$plain = services_pdo_mysql();
var_dump($plain->getAttribute(PDO::ATTR_POOL_ENABLED), $plain->getAttribute(PDO::ATTR_POOL_MAX));
$off = services_pdo_mysql([PDO::ATTR_POOL_ENABLED => false, PDO::ATTR_POOL_MAX => 3]);
var_dump($off->getAttribute(PDO::ATTR_POOL_ENABLED));

$pdo = pool_mysql([PDO::ATTR_POOL_MIN => 0, PDO::ATTR_POOL_MAX => 3, PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 1000]);
var_dump($pdo->getAttribute(PDO::ATTR_POOL_ENABLED), $pdo->getAttribute(PDO::ATTR_POOL_MIN),
    $pdo->getAttribute(PDO::ATTR_POOL_MAX), $pdo->getAttribute(PDO::ATTR_POOL_HEALTHCHECK_INTERVAL));
echo "driver: ", $pdo->getAttribute(PDO::ATTR_DRIVER_NAME), "\n";
$pdo->exec('SET @plain = 1');
$id = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
echo "same connection outside coroutines: ", (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn() === $id ? "yes" : "no", ", @plain = ", $pdo->query('SELECT @plain')->fetchColumn(), "\n";
$pdo->beginTransaction();
var_dump($pdo->inTransaction());
$pdo->rollBack();
$pdo->setAttribute(PDO::ATTR_DEFAULT_FETCH_MODE, PDO::FETCH_NUM);
try {
    $pdo->setAttribute(PDO::ATTR_POOL_MAX, 5);
} catch (PDOException $e) {
    echo $e->getMessage(), "\n";
}
$rows = Async\await_all_or_fail(array_map(fn($i) => Async\spawn(function () use ($pdo) {
    Async\delay(10);
    return $pdo->query('SELECT CONNECTION_ID(), 1')->fetch();
}), range(0, 2)));
echo "fetch mode in every coroutine: ", count(array_filter($rows, fn($r) => array_keys($r) === [0, 1])), "\n";
echo "the constructor's connection pooled: ", in_array($id, array_map(fn($r) => (int) $r[0], $rows), true) ? "yes" : "no", "\n";
?>
--EXPECT--
int(22)
int(23)
int(24)
int(25)
bool(false)
int(10)
bool(false)
bool(true)
int(0)
int(3)
int(1000)
driver: mysql
same connection outside coroutines: yes, @plain = 1
bool(true)
SQLSTATE[HY000]: General error: the pool attributes can only be given to the constructor
fetch mode in every coroutine: 3
the constructor's connection pooled: yes
