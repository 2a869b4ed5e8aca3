--TEST--
Rule C1: a coroutine spawned inside a coroutine starts when its spawner suspends
--FILE--
<?php
Async\spawn(function () {
    echo "outer start\n";
    Async\spawn(function () { echo "inner\n"; });
    echo "outer still running\n";
    Async\suspend();
    echo "outer end\n";
});
?>
--EXPECT--
outer start
outer still running
inner
outer end
