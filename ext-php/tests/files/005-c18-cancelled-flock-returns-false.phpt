--TEST--
C18: a flock(LOCK_EX) waiting for a lock another coroutine holds, cancelled, returns false without $would_block and without the lock; the cancellation is thrown at the coroutine's next suspension
--FILE--
<?php
$path = sys_get_temp_dir() . '/tasync-flock-c-' . getmypid();
touch($path);
$holder = fopen($path, 'r');
flock($holder, LOCK_EX);
$c = Async\spawn(function () use ($path) {
    $f = fopen($path, 'r');
    $wb = 'unset';
    var_dump(flock($f, LOCK_EX, $wb), $wb);
    var_dump(flock($f, LOCK_EX | LOCK_NB), "the lock is still the holder's");
    Async\delay(1);
    echo "not reached\n";
});
Async\delay(50);
$c->cancel();
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
var_dump(flock($holder, LOCK_UN));
unlink($path);
?>
--EXPECT--
bool(false)
int(0)
bool(false)
string(30) "the lock is still the holder's"
await: cancelled
bool(true)
