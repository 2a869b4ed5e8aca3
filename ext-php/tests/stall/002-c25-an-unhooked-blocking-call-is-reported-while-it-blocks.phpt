--TEST--
A coroutine blocked in a call the extension does not take over (sem_acquire on a semaphore another process holds) is reported while it blocks, naming sem_acquire() and the line that called it
--DESCRIPTION--
The scheduler cannot run while the call blocks: the warning comes from the
watchdog's thread, before the other process releases the semaphore. The
handshake with that process happens before any coroutine exists (the main
flow running alone is not a stall).
--EXTENSIONS--
sysvsem
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
$timeout = 0.2 * min(services_time_scale(), 5.0);
ini_set('async.stall_timeout', (string) $timeout);

function say(string $line): void { fwrite(STDERR, $line . "\n"); }

$key = random_int(0x100000, 0x7fffffff);
$sem = sem_get($key, 1, 0600, true);
$holder = proc_open([getenv('TEST_PHP_EXECUTABLE'), '-n', '-d', 'extension=sysvsem', '-r',
    '$s = sem_get((int) $argv[1], 1, 0600, true); sem_acquire($s); echo "held\n"; usleep((int) $argv[2]); sem_release($s);',
    (string) $key, (string) (int) (5 * $timeout * 1e6)], [1 => ['pipe', 'w']], $pipes);
say("the other process: " . trim(fgets($pipes[1])));

function take(SysvSemaphore $sem): void {
    sem_acquire($sem);
}

$ticker = Async\spawn(function () { Async\delay(1); say("the ticker ran after the stall"); });
$taker = Async\spawn(function () use ($sem) {
    say("sem_acquire starts");
    take($sem);
    say("sem_acquire returned");
    sem_release($sem);
});
Async\await($taker);
Async\await($ticker);
fclose($pipes[1]);
proc_close($holder);
sem_remove($sem);
say("done");
?>
--EXPECTF--
the other process: held
sem_acquire starts
PHP Warning:  Async: Coroutine 2 (spawned at %s002-c25-an-unhooked-blocking-call-is-reported-while-it-blocks.php:%d) has not come back to the scheduler for %d.%d s (async.stall_timeout is %d.%d s): it is in sem_acquire(), called at %s002-c25-an-unhooked-blocking-call-is-reported-while-it-blocks.php:16, and every other coroutine waits until it returns. A call this extension does not make non-blocking blocks the whole process: use a hooked or non-blocking API (README, "What is taken over"), move the work to another process (proc_open, pcntl_fork) or offload it, or raise async.stall_timeout (0 disables this warning).
Stack of the stalled code:
#0 %s002-c25-an-unhooked-blocking-call-is-reported-while-it-blocks.php(16): sem_acquire()
#1 %s002-c25-an-unhooked-blocking-call-is-reported-while-it-blocks.php(22): take()
#2 [internal function]: {closure}()
sem_acquire returned
the ticker ran after the stall
done
