--TEST--
Rule T3: count(), idleCount() and activeCount() follow the resources; min resources are made by the constructor; the constructor refuses bad limits
--FILE--
<?php
$pool = new Async\Pool(fn () => new stdClass(), min: 2, max: 3);
echo count($pool), " ", $pool->idleCount(), " ", $pool->activeCount(), "\n";
$a = $pool->acquire();
$b = $pool->acquire();
$c = $pool->acquire();
echo count($pool), " ", $pool->idleCount(), " ", $pool->activeCount(), "\n";
$pool->release($b);
echo count($pool), " ", $pool->idleCount(), " ", $pool->activeCount(), "\n";
foreach ([['min' => -1], ['max' => 0], ['min' => 3, 'max' => 2], ['healthcheckInterval' => -5]] as $args) {
    try {
        new Async\Pool(fn () => 1, ...$args);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
2 2 0
3 0 3
3 1 2
Async\Pool::__construct(): Argument #6 ($min) must be >= 0
Async\Pool::__construct(): Argument #7 ($max) must be >= 1
Async\Pool::__construct(): Argument #6 ($min) must be <= max
Async\Pool::__construct(): Argument #8 ($healthcheckInterval) must be >= 0
