--TEST--
Rule T3: close() fails the coroutines waiting to acquire with PoolException, destroys the idle resources at once and lent ones when they come back; acquiring from a closed pool throws PoolException
--FILE--
<?php
$n = 0;
$pool = new Async\Pool(function () use (&$n) { return ++$n; }, destructor: function ($r) { echo "destroy $r\n"; }, min: 2, max: 2);
$lent = $pool->acquire();
$lent2 = $pool->acquire();
$waiter = Async\spawn(function () use ($pool) {
    try {
        $pool->acquire();
    } catch (Async\PoolException $e) {
        echo "waiter: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
Async\delay(5);
$pool->release($lent2);
$pool->close();
echo "closed: ", var_export($pool->isClosed(), true), "\n";
Async\await($waiter);
$pool->release($lent);
echo "count ", count($pool), "\n";
try {
    $pool->acquire();
} catch (Async\PoolException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
closed: true
waiter: Async\PoolException: Pool is closed
destroy 2
destroy 1
count 0
Pool is closed
