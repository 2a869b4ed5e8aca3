--TEST--
Rule T3: acquire() takes an idle resource, creates one in the acquiring coroutine while fewer than max exist (the factory may suspend), and otherwise waits until one is released
--FILE--
<?php
$made = 0;
$pool = new Async\Pool(function () use (&$made) {
    Async\delay(1);
    return "conn" . ++$made;
}, max: 2);
$a = $pool->acquire();
$b = $pool->acquire();
echo "$a $b, count ", count($pool), "\n";
$waiter = Async\spawn(function () use ($pool) {
    $r = $pool->acquire();
    echo "waiter got $r\n";
    $pool->release($r);
});
Async\delay(10);
echo "the waiter still waits: ", var_export(!$waiter->isCompleted(), true), "\n";
$pool->release($a);
Async\await($waiter);
echo "idle ", $pool->idleCount(), ", active ", $pool->activeCount(), ", made $made\n";
$again = $pool->acquire();
echo "reused $again\n";
?>
--EXPECT--
conn1 conn2, count 2
the waiter still waits: true
waiter got conn1
idle 1, active 1, made 2
reused conn1
