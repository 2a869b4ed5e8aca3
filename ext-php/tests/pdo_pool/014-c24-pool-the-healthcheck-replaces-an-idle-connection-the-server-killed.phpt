--TEST--
PDO pool: with ATTR_POOL_HEALTHCHECK_INTERVAL (milliseconds) idle connections are checked and one the server killed is replaced (up to ATTR_POOL_MIN) before anyone borrows it; without it the dead one is found when it is lent again and the borrower gets a fresh one; the timer keeps nothing alive
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
Async\delay(1); // the runtime runs: the constructor fills the pool to its minimum
foreach ([100, 0] as $interval) {
    $pdo = pool_mysql([PDO::ATTR_POOL_MIN => 1, PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => $interval]);
    $id = Async\await(Async\spawn(fn() => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()));
    $admin->exec("KILL $id");
    Async\delay(400);
    // The connections that exist now: the pool's replacement is one of them.
    $existing = array_map('intval', $admin->query('SELECT ID FROM information_schema.PROCESSLIST')->fetchAll(PDO::FETCH_COLUMN));
    $next = Async\await(Async\spawn(fn() => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()));
    printf("interval %d: replaced while idle: %s, next borrower on a fresh connection: %s\n", $interval,
        in_array($next, $existing, true) ? "yes" : "no", $next !== $id ? "yes" : "no");
    $pdo = null;
}
echo "end\n";
?>
--EXPECT--
interval 100: replaced while idle: yes, next borrower on a fresh connection: yes
interval 0: replaced while idle: no, next borrower on a fresh connection: yes
end
