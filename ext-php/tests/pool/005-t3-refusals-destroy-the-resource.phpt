--TEST--
Rule T3: a resource beforeAcquire refuses is destroyed and the next one is taken; one beforeRelease refuses is destroyed instead of coming back; the destructor runs before the call returns
--FILE--
<?php
$n = 0;
$pool = new Async\Pool(
    factory: function () use (&$n) { echo "create ", ++$n, "\n"; return $n; },
    destructor: function ($r) { echo "destroy $r\n"; },
    beforeAcquire: function ($r) { echo "check $r before lending\n"; return $r !== 1; },
    beforeRelease: function ($r) { echo "check $r on return\n"; return $r % 2 === 0; },
    min: 1,
    max: 3,
);
echo "acquire\n";
$r = $pool->acquire();
echo "got $r\n";
$pool->release($r);
echo "released, idle ", $pool->idleCount(), "\n";
$s = $pool->acquire();
$t = $pool->acquire();
$pool->release($t);
echo "released $t, count ", count($pool), "\n";
?>
--EXPECT--
create 1
acquire
check 1 before lending
create 2
destroy 1
got 2
check 2 on return
released, idle 1
check 2 before lending
create 3
check 3 on return
destroy 3
released 3, count 1
