--TEST--
Rule G1 (seed 003): spawnWithKey() and foreach over the group in completion order, as $key => [$result, $error]
--FILE--
<?php
function fetchUser(int $id): string { Async\delay(20); return "user $id"; }
function fetchOrders(int $id): string { Async\delay(5); throw new RuntimeException("orders of $id unavailable"); }

$group = new Async\TaskGroup();

$group->spawnWithKey('user', fn() => fetchUser(1));
$group->spawnWithKey('orders', fn() => fetchOrders(1));

// Iterate over results as they become ready
foreach ($group as $key => [$result, $error]) {
    if ($error) {
        echo "Task $key failed: {$error->getMessage()}\n";
    } else {
        echo "Task $key: $result\n";
    }
}
?>
--EXPECT--
Task orders failed: orders of 1 unavailable
Task user: user 1
