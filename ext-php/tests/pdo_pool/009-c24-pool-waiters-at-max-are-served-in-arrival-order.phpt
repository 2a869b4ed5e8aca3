--TEST--
PDO pool: at ATTR_POOL_MAX coroutines wait for a connection and are served in the order they arrived; a coroutine that borrows again and again in a loop does not overtake them (what comes back is reserved for the first waiter)
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
$gap = (int) (40 * services_time_scale());
$order = [];
$coroutines = [];
for ($i = 0; $i < 6; $i++) {
    $coroutines[] = Async\spawn(function () use ($pdo, $i, $gap, &$order) {
        Async\delay($gap * $i); // arrive one after another
        $pdo->query('DO 1');    // served
        $order[] = $i;
        $pdo->query('SELECT SLEEP(0.2)');
    });
}
// Arrives between 2 and 3, then borrows in a loop: a new coroutine each round.
$loop = Async\spawn(function () use ($pdo, $gap, &$order) {
    Async\delay((int) ($gap * 2.5));
    for ($k = 0; $k < 3; $k++) {
        Async\await(Async\spawn(function () use ($pdo, &$order, $k) {
            $pdo->query('DO 1');
            $order[] = "L$k";
        }));
    }
});
Async\await_all_or_fail([...$coroutines, $loop]);
echo implode(' ', $order), "\n";
?>
--EXPECT--
0 1 2 L0 3 4 5 L1 L2
