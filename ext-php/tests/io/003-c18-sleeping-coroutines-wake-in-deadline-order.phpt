--TEST--
Rule C18: coroutines blocked in sleep functions wait concurrently and wake in deadline order
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$cs = [
    spawn(function () { usleep(300000); echo "usleep 300 ms\n"; }),
    spawn(function () { time_nanosleep(0, 20000000); echo "time_nanosleep 20 ms\n"; }),
    spawn(function () { usleep(150000); echo "usleep 150 ms\n"; }),
    spawn(function () { time_sleep_until(microtime(true) + 0.6); echo "time_sleep_until +600 ms\n"; }),
];
foreach ($cs as $c) await($c);
?>
--EXPECT--
time_nanosleep 20 ms
usleep 150 ms
usleep 300 ms
time_sleep_until +600 ms
