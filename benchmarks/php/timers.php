<?php
// How late timers end: Async\delay() and usleep() in coroutines, against
// plain PHP's usleep() (nanosleep, in a PHP process without the extension)
// measured in the same script. Lateness is the time a wait took beyond what
// it asked for, in microseconds; the figures are medians and 90th
// percentiles of many waits.
//
// Three shapes: one coroutine that waits again and again (an idle loop);
// one that waits 300 us (below a millisecond); and 50 coroutines that each
// wait 1 ms, 100 times, with a little work between the waits (the shape of
// a server whose handlers await a timer: each new deadline falls somewhere
// between two of the loop's iterations).
//
// On epoll-based backends (uv, ev) a wait used to end on a millisecond
// boundary (epoll_wait's unit; libuv's clock counts whole milliseconds,
// libev waits one at least): 300 us took about 1 ms, and a 1 ms delay that
// started between two iterations up to 2. The core now ends such waits
// with a timerfd of its own (core/src/time/deadline_fd.cpp) on backends
// without TASYNC_CAP_PRECISE_TIMEOUT. Not a goal of an issue: printed for
// information, with the baseline.
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\await_all;
use function Async\delay;
use function Async\spawn;

/** [median, 90th percentile] of $xs. */
function pct(array $xs): array
{
    sort($xs);
    $n = count($xs);
    return [$xs[intdiv($n, 2)], $xs[min($n - 1, intdiv($n * 9, 10))]];
}

/** Lateness in microseconds of $n waits of $us by $wait. */
function lateness(callable $wait, int $us, int $n): array
{
    $late = [];
    for ($i = 0; $i < $n; $i++) {
        $t = hrtime(true);
        $wait($us);
        $late[] = (hrtime(true) - $t) / 1e3 - $us;
    }
    return $late;
}

/** The same, in a PHP process without the extension (plain usleep). */
function plain_lateness(int $us, int $n): array
{
    $code = 'function pct($x){sort($x);$n=count($x);return [$x[intdiv($n,2)],$x[min($n-1,intdiv($n*9,10))]];}'
        . '$l=[];for($i=0;$i<' . $n . ';$i++){$t=hrtime(true);usleep(' . $us . ');'
        . '$l[]=(hrtime(true)-$t)/1e3-' . $us . ';}echo json_encode(pct($l));';
    $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -r ' . escapeshellarg($code));
    $v = json_decode((string) $out, true);
    if (!is_array($v)) {
        fwrite(STDERR, "baseline process failed: $out\n");
        exit(1);
    }
    return $v;
}

function line(string $what, array $ours, array $plain): void
{
    printf("%-46s %8.0f %8.0f us   plain usleep %8.0f %8.0f us   %6.2fx\n", $what, $ours[0], $ours[1], $plain[0],
        $plain[1], $plain[0] > 0 ? $ours[0] / $plain[0] : INF);
}

printf("== timer lateness, median and 90th percentile (backend: %s)\n", ini_get('async.reactor') ?: 'uv');

$delay = static function (int $us): void { delay(intdiv($us, 1000)); };
$sleep = static function (int $us): void { usleep($us); };

line('delay(1), one coroutine, 300 times', pct(await_all([spawn(fn () => lateness($delay, 1000, 300))])[0][0]),
    plain_lateness(1000, 300));
line('usleep(300) in a coroutine, 300 times', pct(await_all([spawn(fn () => lateness($sleep, 300, 300))])[0][0]),
    plain_lateness(300, 300));

// 50 coroutines: delay(1), then ~20 us of work, 100 times each.
$cs = [];
for ($c = 0; $c < 50; $c++) {
    $cs[] = spawn(static function () use ($delay): array {
        $late = [];
        for ($i = 0; $i < 100; $i++) {
            $late = array_merge($late, lateness($delay, 1000, 1));
            $x = 0;
            for ($k = 0; $k < 400; $k++) {
                $x += $k;
            }
        }
        return $late;
    });
}
[$results] = await_all($cs);
line('delay(1) in 50 coroutines with work between', pct(array_merge(...array_values($results))),
    plain_lateness(1000, 300));
