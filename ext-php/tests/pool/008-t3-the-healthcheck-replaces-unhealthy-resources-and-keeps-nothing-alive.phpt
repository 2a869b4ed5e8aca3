--TEST--
Rule T3: the periodic healthcheck destroys the idle resources it refuses and tops up to min; its timer never keeps the program alive on its own
--FILE--
<?php
$n = 0;
$healthy = [];
$pool = new Async\Pool(
    factory: function () use (&$n, &$healthy) { $n++; $healthy[$n] = true; return $n; },
    destructor: function ($r) { echo "destroy $r\n"; },
    healthcheck: function ($r) use (&$healthy) { return $healthy[$r]; },
    min: 2,
    max: 4,
    healthcheckInterval: 10,
);
$healthy[1] = false;
Async\delay(60);
echo "idle ", $pool->idleCount(), ", made $n\n";
echo "the script ends with the check still armed\n";
?>
--EXPECT--
destroy 1
idle 2, made 3
the script ends with the check still armed
destroy 2
destroy 3
