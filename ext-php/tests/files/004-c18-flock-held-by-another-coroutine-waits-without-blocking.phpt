--TEST--
C18: flock(LOCK_EX) on a file another coroutine holds locked (through another fopen of it) waits in the coroutine and gets the lock once the holder releases it (flock(LOCK_UN), fclose, or a shared lock's end); LOCK_NB fails at once with $would_block; LOCK_EX of file_put_contents waits the same way
--FLAKY--
The stall ticker measures wall-clock lateness; another process on a 2-CPU machine can delay it (one retry, as run-tests.php gives every timing test).
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$path = sys_get_temp_dir() . '/tasync-flock-' . getmypid();
touch($path);
$ticker = new StallTicker();
$log = [];
$holder = Async\spawn(function () use ($path, &$log) {
    $f = fopen($path, 'r+');
    flock($f, LOCK_EX);
    $log[] = 'holder locked';
    Async\delay(150);
    $log[] = 'holder unlocks';
    flock($f, LOCK_UN);
    Async\delay(150);
    flock($f, LOCK_SH);
    $log[] = 'holder shares';
    Async\delay(150);
    $log[] = 'holder closes';
    fclose($f);
});
$waiter = Async\spawn(function () use ($path, &$log) {
    Async\delay(20);
    $f = fopen($path, 'r+');
    $log[] = 'LOCK_NB: ' . var_export(flock($f, LOCK_EX | LOCK_NB, $wb), true) . ', would_block ' . var_export($wb, true);
    $log[] = 'waiter waits';
    $log[] = 'waiter locked: ' . var_export(flock($f, LOCK_EX, $wb), true) . ', would_block ' . var_export($wb, true);
    Async\delay(50);
    flock($f, LOCK_UN);
    Async\delay(200);
    $log[] = 'shared with the holder: ' . var_export(flock($f, LOCK_SH | LOCK_NB), true);
    flock($f, LOCK_UN);
    $log[] = 'waiter waits for an exclusive lock';
    flock($f, LOCK_EX);
    $log[] = 'waiter locked after the close';
    fclose($f);
    $log[] = 'file_put_contents: ' . var_export(file_put_contents($path, 'done', LOCK_EX), true);
});
Async\await_all_or_fail([$holder, $waiter], Async\timeout((int) (20000 * services_time_scale())));
$stall = $ticker->stop();
echo implode("\n", $log), "\n";
echo "stall below 50 ms: ", $stall < 50 * services_time_scale() ? "yes" : "no ($stall ms)", "\n";
var_dump(file_get_contents($path));
unlink($path);
?>
--EXPECT--
holder locked
LOCK_NB: false, would_block 1
waiter waits
holder unlocks
waiter locked: true, would_block 0
holder shares
shared with the holder: true
waiter waits for an exclusive lock
holder closes
waiter locked after the close
file_put_contents: 4
stall below 50 ms: yes
string(4) "done"
