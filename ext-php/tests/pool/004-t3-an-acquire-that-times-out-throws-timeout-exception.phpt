--TEST--
Rule T3: acquire($timeout) waits at most $timeout ms and throws Async\TimeoutException (not a PoolException), having taken nothing; a negative timeout is a ValueError
--FILE--
<?php
$pool = new Async\Pool(fn () => new stdClass(), max: 1);
$r = $pool->acquire();
try {
    $pool->acquire(20);
} catch (Async\TimeoutException $e) {
    echo get_class($e), " is a PoolException: ", var_export($e instanceof Async\PoolException, true), "\n";
}
$pool->release($r);
var_dump($pool->acquire(20) === $r);
try {
    $pool->acquire(-1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\TimeoutException is a PoolException: false
bool(true)
Async\Pool::acquire(): Argument #1 ($timeout) must be greater than or equal to 0
