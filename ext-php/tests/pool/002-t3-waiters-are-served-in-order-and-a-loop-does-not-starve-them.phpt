--TEST--
Rule T3: coroutines waiting to acquire are served in the order they began to wait, and a released resource is reserved for the waiter it wakes: a coroutine that acquires and releases in a loop does not starve them
--FILE--
<?php
$pool = new Async\Pool(fn () => "the one", max: 1);
$held = $pool->acquire();
$order = [];
$waiters = [];
foreach (['A', 'B', 'C'] as $name) {
    $waiters[] = Async\spawn(function () use ($pool, $name, &$order) {
        $r = $pool->acquire();
        $order[] = $name;
        Async\delay(1);
        $pool->release($r);
    });
    Async\delay(1);
}
$pool->release($held);
// The main flow tries to barge in right away, again and again.
$barged = 0;
for ($i = 0; $i < 3; $i++) {
    $r = $pool->acquire();
    $order[] = "main";
    $pool->release($r);
}
Async\await_all($waiters);
echo implode(" ", $order), "\n";
?>
--EXPECT--
A B C main main main
