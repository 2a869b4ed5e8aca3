--TEST--
Rule C18 from an extension built out of tree: fdwait_read() in a coroutine suspends only that coroutine, so readers of two sockets overlap while the scheduler keeps running, and each gets its own data
--FILE--
<?php
// The helpers installed with run_phpt.py (<prefix>/share/tasync/phpt/include).
require __DIR__ . '/../include/suspends.inc';
require __DIR__ . '/../include/timing.inc';
use function Async\spawn;
use function Async\await;
use function Async\delay;

[$a1, $b1] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
[$a2, $b2] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$ticker = new StallTicker();
$order = [];
$r1 = spawn(function () use ($a1, &$order) { $s = fdwait_read($a1, 100, 10.0); $order[] = $s; return $s; });
$r2 = spawn(function () use ($a2, &$order) { $s = fdwait_read($a2, 100, 10.0); $order[] = $s; return $s; });
// Both readers wait at once: the second socket gets its data first.
spawn(function () use ($b1, $b2) {
    delay(100);
    fwrite($b2, "second socket");
    delay(100);
    fwrite($b1, "first socket");
});
var_dump(await($r1), await($r2));
echo "completed in the order the data came: ", implode(', ', $order), "\n";
$stall = $ticker->stop();
// A read that blocked the process would stall the ticker (and the writer)
// until its 10 s timeout; one that suspends, for a scheduler pass.
echo "the scheduler ran meanwhile: ", $stall < 1000 * services_time_scale() ? "yes" : "no (stalled $stall ms)", "\n";

// run_and_see(): another coroutine runs during the call, which suspended.
[$result, $suspended] = await(spawn(function () use ($a1, $b1) {
    spawn(function () use ($b1) { delay(20); fwrite($b1, "later"); });
    return run_and_see(fn() => fdwait_read($a1, 100, 10.0));
}));
var_dump($result, $suspended);
?>
--EXPECT--
string(12) "first socket"
string(13) "second socket"
completed in the order the data came: second socket, first socket
the scheduler ran meanwhile: yes
string(5) "later"
bool(true)
