--TEST--
PDO pool: a connect error surfaces as PHP's usual PDOException: from the constructor (which connects once), and from the call of a coroutine for which the pool could not open a connection (its init command failed); the pool options are checked
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$dsn = sprintf('mysql:host=%s;port=%d;dbname=%s', service_env('TASYNC_TEST_MYSQL_HOST'),
    (int) service_env('TASYNC_TEST_MYSQL_PORT'), service_env('TASYNC_TEST_MYSQL_DB'));
try {
    new PDO($dsn, 'no_such_user', 'wrong', [PDO::ATTR_POOL_ENABLED => true]);
} catch (PDOException $e) {
    echo "constructor: PDOException ", $e->getCode(), "\n";
}
// The pool's second connection fails to connect: its init command fails
// while the first connection holds a lock.
$admin = services_pdo_mysql();
$proc = pool_name('pool_015_init');
$admin->exec("DROP PROCEDURE IF EXISTS $proc");
$admin->exec("CREATE PROCEDURE $proc() BEGIN IF NOT GET_LOCK('$proc', 0) THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'busy'; END IF; END");
$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 2, PDO::MYSQL_ATTR_INIT_COMMAND => "CALL $proc()"]);
$results = Async\await_all(array_map(fn($i) => Async\spawn(function () use ($pdo) {
    $v = $pdo->query('SELECT 1')->fetchColumn();
    Async\delay(100);
    return $v;
}), [0, 1]));
echo "served: ", json_encode(array_values($results[0])), "\n";
foreach ($results[1] as $e) {
    echo "refused: ", get_class($e), " ", $e->getCode(), "\n";
}
unset($pdo);
$admin->exec("DROP PROCEDURE $proc");
foreach ([[PDO::ATTR_POOL_MAX => 0], [PDO::ATTR_POOL_MIN => 3, PDO::ATTR_POOL_MAX => 2], [PDO::ATTR_PERSISTENT => true]] as $bad) {
    try {
        pool_mysql($bad);
    } catch (PDOException $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECTF--
constructor: PDOException 1045
served: [1]
refused: PDOException 1644
SQLSTATE[HY000]: General error: the pool needs 0 <= PDO::ATTR_POOL_MIN <= PDO::ATTR_POOL_MAX, PDO::ATTR_POOL_MAX >= 1 and PDO::ATTR_POOL_HEALTHCHECK_INTERVAL >= 0 (given 0, 0, 0)
SQLSTATE[HY000]: General error: the pool needs 0 <= PDO::ATTR_POOL_MIN <= PDO::ATTR_POOL_MAX, PDO::ATTR_POOL_MAX >= 1 and PDO::ATTR_POOL_HEALTHCHECK_INTERVAL >= 0 (given 3, 2, 0)
SQLSTATE[HY000]: General error: PDO::ATTR_PERSISTENT and PDO::ATTR_POOL_ENABLED cannot be combined
