<?php
// 10 000 concurrent delay(10): the wall time to finish them all, against a
// single delay(10) measured in the same script (issue 5 goal: <= 40 ms).
//
// Two bursts in one process. The first ("cold") runs on fresh memory: every
// coroutine's C stack and PHP VM stack pages are touched for the first time,
// which costs a page fault each (about 10-30 us on this project's VM). The
// second ("warm") reuses what the first left: with the default
// async.stack_cache=128 most stacks were given back to the kernel in between;
// with async.stack_cache=10000 (run.sh runs both) they stay, as a
// long-running server's would.
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\await_all;
use function Async\delay;
use function Async\spawn;

const N = 10000;

$t = bench_now();
delay(10);
$one = (bench_now() - $t) * 1e3;

function burst(): float
{
    $body = static function () { delay(10); };
    $cs = [];
    $t = bench_now();
    for ($i = 0; $i < N; $i++) {
        $cs[] = spawn($body);
    }
    await_all($cs);
    return (bench_now() - $t) * 1e3;
}

$cold = burst();
$warm = burst();

bench_header('10 000 concurrent delay(10), async.stack_cache=' . ini_get('async.stack_cache'));
bench_report('wall time, first burst (cold memory)', $cold, 'ms', 'one delay(10)', $one, '<= 40 ms', $cold <= 40.0);
bench_report('wall time, second burst', $warm, 'ms', 'one delay(10)', $one, '<= 40 ms', $warm <= 40.0);
