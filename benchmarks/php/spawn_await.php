<?php
// await(spawn(fn() => null)) per coroutine, against new Fiber + start +
// finish measured in a separate process (issue 5 goal: <= 1 us).
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\await;
use function Async\spawn;

const N = 100000;

$fibers = bench_in_child(<<<'PHP'
    function baseline(): float {
        $fn = static function () {};
        for ($i = 0; $i < 1000; $i++) { $f = new Fiber($fn); $f->start(); }   // warm-up
        $t = hrtime(true);
        for ($i = 0; $i < 100000; $i++) { $f = new Fiber($fn); $f->start(); }
        return (hrtime(true) - $t) / 1e3 / 100000;                              // us per fiber
    }
    PHP);

$fn = static function () {};
for ($i = 0; $i < 1000; $i++) {
    await(spawn($fn));  // warm-up: the stack cache and the VM stacks
}
$t = bench_now();
for ($i = 0; $i < N; $i++) {
    await(spawn($fn));
}
$us = (bench_now() - $t) * 1e6 / N;

bench_header('spawn + run + finish + await of an empty coroutine');
bench_report('await(spawn(fn() => null))', $us, 'us', 'new Fiber + start + finish', $fibers, '<= 1 us', $us <= 1.0);
