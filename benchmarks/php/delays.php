<?php
// 10 000 concurrent delay(10): the wall time to finish them all, against a
// single delay(10) measured in the same script (issue 5 goal: <= 40 ms).
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\await_all;
use function Async\delay;
use function Async\spawn;

const N = 10000;

$t = bench_now();
delay(10);
$one = (bench_now() - $t) * 1e3;

$body = static function () { delay(10); };
$cs = [];
$t = bench_now();
for ($i = 0; $i < N; $i++) {
    $cs[] = spawn($body);
}
await_all($cs);
$ms = (bench_now() - $t) * 1e3;

bench_header('10 000 concurrent delay(10)');
bench_report('wall time until all finished', $ms, 'ms', 'one delay(10)', $one, '<= 40 ms', $ms <= 40.0);
