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

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 1]);
$gap = (int) (10 * services_time_scale());
$held = 0;
$release = false;
$order = [];
// A coroutine holds the connection until everyone waits.
$blockers = [];
for ($b = 0; $b < 1; $b++) {
    $blockers[] = Async\spawn(function () use ($pdo, &$held, &$release) {
        $pdo->query('DO 1');
        for ($held++; !$release; Async\delay(5));
    });
}
while ($held < 1) {
    Async\delay(5);
}
$coroutines = [];
for ($i = 0; $i < 6; $i++) {
    $coroutines[] = Async\spawn(function () use ($pdo, $i, &$order) {
        $pdo->query('DO 1'); // waits: served in arrival order
        $order[] = $i;
    });
    Async\delay($gap);
    if ($i === 2) {
        // Arrives between 2 and 3, then borrows in a loop: a new coroutine each round.
        $coroutines[] = Async\spawn(function () use ($pdo, &$order) {
            for ($k = 0; $k < 3; $k++) {
                Async\await(Async\spawn(function () use ($pdo, &$order, $k) {
                    $pdo->query('DO 1');
                    $order[] = "L$k";
                }));
            }
        });
        Async\delay($gap);
    }
}
$release = true;
Async\await_all_or_fail([...$blockers, ...$coroutines]);
echo implode(' ', $order), "\n";
?>
--EXPECT--
0 1 2 L0 3 4 5 L1 L2
