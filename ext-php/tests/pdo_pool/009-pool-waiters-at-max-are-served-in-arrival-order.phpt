--TEST--
PDO pool: at ATTR_POOL_MAX coroutines wait for a connection and are served in the order they arrived; a coroutine that borrows again and again in a loop does not overtake them
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
$order = [];
$coroutines = [];
for ($i = 0; $i < 6; $i++) {
    $coroutines[] = Async\spawn(function () use ($pdo, $i, &$order) {
        Async\delay(10 * $i); // arrive one after another
        $pdo->query('SELECT SLEEP(0.05)');
        $order[] = $i;
    });
}
// A loop: each round a new coroutine borrows (the previous one's connection comes back).
$loop = Async\spawn(function () use ($pdo, &$order) {
    Async\delay(25);
    for ($k = 0; $k < 3; $k++) {
        Async\await(Async\spawn(function () use ($pdo, &$order, $k) {
            $pdo->query('DO 1');
            $order[] = "L$k";
        }));
    }
});
Async\await_all_or_fail([...$coroutines, $loop]);
echo implode(' ', $order), "\n";
$served = array_values(array_filter($order, 'is_int'));
echo "arrival order kept: ", $served === range(0, 5) ? "yes" : "no", "\n";
echo "L0 served after the coroutines that came before it: ", array_search('L0', $order) > array_search(2, $order) ? "yes" : "no", "\n";
?>
--EXPECTF--
%s
arrival order kept: yes
L0 served after the coroutines that came before it: yes
