<?php
// suspend() in a round robin of 1000 coroutines x 1000 suspends, against the
// same round robin of raw Fibers (resumed by a loop) in a separate process
// (issue 5 goal: <= 1.3x the Fibers).
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\spawn;
use function Async\suspend;

const COROUTINES = 1000;
const SUSPENDS = 1000;

$fibers = bench_in_child(<<<'PHP'
    function baseline(): float {
        $fs = [];
        for ($i = 0; $i < 1000; $i++) {
            $fs[] = $f = new Fiber(static function () { for ($j = 0; $j < 1000; $j++) Fiber::suspend(); });
        }
        $t = hrtime(true);
        foreach ($fs as $f) $f->start();
        for ($j = 0; $j < 1000; $j++) foreach ($fs as $f) $f->resume();
        return (hrtime(true) - $t) / (1000 * 1000);                       // ns per suspend
    }
    PHP);

$body = static function () {
    for ($j = 0; $j < SUSPENDS; $j++) {
        suspend();
    }
};
$cs = [];
for ($i = 0; $i < COROUTINES; $i++) {
    $cs[] = spawn($body);
}
$t = bench_now();
Async\await_all($cs);
$ns = (bench_now() - $t) * 1e9 / (COROUTINES * SUSPENDS);

bench_header('suspend() round robin, 1000 coroutines x 1000 suspends');
bench_report('suspend() per switch', $ns, 'ns', 'Fiber::suspend() + resume()', $fibers, '<= 1.3x', $ns <= 1.3 * $fibers);
