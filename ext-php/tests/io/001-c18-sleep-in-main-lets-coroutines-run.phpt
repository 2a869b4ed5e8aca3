--TEST--
Rule C18: sleep() in the main flow suspends only the main flow; spawned coroutines run meanwhile
--FILE--
<?php
use function Async\spawn;

spawn(function () { echo "coroutine 1 runs while main sleeps\n"; });
spawn(function () { usleep(1000); echo "coroutine 2 woke from usleep\n"; });
echo "main sleeps\n";
var_dump(sleep(1));
echo "main woke\n";
?>
--EXPECT--
main sleeps
coroutine 1 runs while main sleeps
coroutine 2 woke from usleep
int(0)
main woke
