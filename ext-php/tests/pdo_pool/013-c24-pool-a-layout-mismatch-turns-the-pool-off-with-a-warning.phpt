--TEST--
PDO pool: when the self-check finds a PDO layout it was not built for, the pool is turned off with one warning and PDO::ATTR_POOL_ENABLED is ignored: one connection per object, which rule C24 keeps to one coroutine at a time
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--INI--
async.pdo_pool_layout_fault=1
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 4]);
var_dump($pdo->getAttribute(PDO::ATTR_POOL_ENABLED));
$again = pool_mysql([PDO::ATTR_POOL_MAX => 4]); // no second warning
$coroutines = array_map(fn($i) => Async\spawn(function () use ($pdo) {
    try {
        return $pdo->query('SELECT SLEEP(0.1)')->fetchColumn();
    } catch (Throwable $e) {
        return get_class($e);
    }
}), [0, 1]);
echo implode(', ', Async\await_all($coroutines)[0]), "\n";
?>
--EXPECTF--
Warning: PDO::__construct(): PDO connection pooling is disabled: PDO objects do not have the layout this build was made for; PDO::ATTR_POOL_ENABLED is ignored in %s on line %d
bool(false)
%s
