--TEST--
Rule C18: blocking functions spawned as coroutines themselves (seed: spawn('sleep', 2), spawn(sleep(...), 1))
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$a = spawn('usleep', 200000);
$b = spawn(sleep(...), 0);
$c = spawn(function () { echo "a third coroutine runs meanwhile\n"; return "c"; });
var_dump(await($b), await($c), await($a));

// await with a cancellation that is a sleeping coroutine (seed 001).
$slow = spawn(function () { usleep(2000000); return "too late"; });
try {
    await($slow, spawn('usleep', 1000));
} catch (Async\AwaitCancelledException $e) {
    echo "AwaitCancelledException\n";
}
$slow->cancel();
?>
--EXPECT--
a third coroutine runs meanwhile
int(0)
string(1) "c"
NULL
AwaitCancelledException
