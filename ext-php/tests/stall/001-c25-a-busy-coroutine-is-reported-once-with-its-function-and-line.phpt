--TEST--
A coroutine that computes without yielding for longer than async.stall_timeout is reported once, naming the coroutine, the function and its file:line
--DESCRIPTION--
The warning comes from the watchdog's thread while the loop still runs
(between "busy starts" and "busy ends"), goes to stderr, and says what to
do. The script's own lines go to stderr too, so that the order is exact.
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
/* Under valgrind everything is slower: a longer threshold and loop. */
$timeout = 0.2 * min(services_time_scale(), 5.0);
ini_set('async.stall_timeout', (string) $timeout);

function say(string $line): void { fwrite(STDERR, $line . "\n"); }

function busy(float $seconds): int {
    $end = hrtime(true) + (int) ($seconds * 1e9);
    $n = 0;
    /* One line: whichever of its oplines was saved last, it is this line. */
    while (hrtime(true) < $end) { for ($i = 0; $i < 20000; $i++) { $n++; } }
    return $n;
}

$ticker = Async\spawn(function () { Async\delay(1); say("the ticker ran after the stall"); });
$worker = Async\spawn(function () use ($timeout) {
    say("busy starts");
    busy(5 * $timeout);
    say("busy ends");
});
Async\await($worker);
Async\await($ticker);
say("done");
?>
--EXPECTF--
busy starts
PHP Warning:  Async: Coroutine 2 (spawned at %s001-c25-a-busy-coroutine-is-reported-once-with-its-function-and-line.php:18) has not come back to the scheduler for %d.%d s (async.stall_timeout is %d.%d s): it is in busy() at %s001-c25-a-busy-coroutine-is-reported-once-with-its-function-and-line.php:13, and every other coroutine waits until it returns. A call this extension does not make non-blocking blocks the whole process: use a hooked or non-blocking API (README, "What is taken over"), move the work to another process (proc_open, pcntl_fork) or offload it, or raise async.stall_timeout (0 disables this warning).
Stack of the stalled code:
#0 %s001-c25-a-busy-coroutine-is-reported-once-with-its-function-and-line.php(20): busy()
#1 [internal function]: {closure}()
busy ends
the ticker ran after the stall
done
