--TEST--
Rule T3: a resource held by a coroutine that ends without releasing it comes back to the pool (its beforeRelease check runs in whoever takes it next); with the pool closed it is destroyed: nothing leaks
--FILE--
<?php
$pool = new Async\Pool(
    factory: fn () => "res",
    destructor: function ($r) { echo "destroy $r\n"; },
    beforeRelease: function ($r) { echo "beforeRelease runs in ", Async\currentCoroutine()->getId() === 0 ? "main" : "another coroutine", "\n"; return true; },
    max: 1,
);
$forgetful = Async\spawn(function () use ($pool) {
    $pool->acquire();
    echo "ends holding it\n";
});
Async\await($forgetful);
echo "idle ", $pool->idleCount(), "\n";
echo "main got " . $pool->acquire() . "\n";
$pool->release("res");

$closed = new Async\Pool(fn () => "kept", destructor: function ($r) { echo "destroy $r\n"; });
$holder = Async\spawn(function () use ($closed) { $closed->acquire(); Async\delay(10); });
Async\delay(1);
$closed->close();
Async\await($holder);
Async\delay(1);
echo "count ", count($closed), "\n";
?>
--EXPECT--
ends holding it
idle 1
beforeRelease runs in main
main got res
beforeRelease runs in main
destroy kept
count 0
destroy res
