--TEST--
The main flow computing alone starves nobody and is not reported; with a coroutine waiting to run, it is, as the main coroutine
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
$timeout = 0.2 * min(services_time_scale(), 5.0);
ini_set('async.stall_timeout', (string) $timeout);

function say(string $line): void { fwrite(STDERR, $line . "\n"); }

function busy(float $seconds): void {
    $end = hrtime(true) + (int) ($seconds * 1e9);
    while (hrtime(true) < $end) { for ($i = 0; $i < 20000; $i++); }
}

Async\await(Async\spawn(function () { say("a coroutine ran"); }));
say("alone");
busy(3 * $timeout);
$waiting = Async\spawn(function () { say("the waiting coroutine ran"); });
say("not alone");
busy(5 * $timeout);
Async\await($waiting);
say("done");
?>
--EXPECTF--
a coroutine ran
alone
not alone
PHP Warning:  Async: The main coroutine has not come back to the scheduler for %d.%d s (async.stall_timeout is %d.%d s): it is in busy() at %s005-c25-the-main-flow-stalls-only-when-a-coroutine-waits-for-it.php:10, and every other coroutine waits until it returns. A call this extension does not make non-blocking blocks the whole process: use a hooked or non-blocking API (README, "What is taken over"), move the work to another process (proc_open, pcntl_fork) or offload it, or raise async.stall_timeout (0 disables this warning).
Stack of the stalled code:
#0 %s005-c25-the-main-flow-stalls-only-when-a-coroutine-waits-for-it.php(18): busy()
#1 {main}
the waiting coroutine ran
done
