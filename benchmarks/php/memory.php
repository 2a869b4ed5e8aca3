<?php
// Resident memory per suspended coroutine with 100 000 of them, against the
// suspended Fibers (30 000 of them) in a separate process (issue 5 goal:
// <= 16 KiB per coroutine).
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\spawn;
use function Async\suspend;

const N = 100000;

function rss_kib(): float
{
    $statm = explode(' ', trim(file_get_contents('/proc/self/statm')));
    return (float) $statm[1] * 4096 / 1024;
}

$fibers = bench_in_child(<<<'PHP'
    function rss_kib(): float {
        $statm = explode(' ', trim(file_get_contents('/proc/self/statm')));
        return (float) $statm[1] * 4096 / 1024;
    }
    function baseline(): float {
        $before = rss_kib();
        $fs = [];
        // 30 000: each Fiber maps its own stack, and 100 000 of them exceed
        // the kernel's default vm.max_map_count (65530).
        for ($i = 0; $i < 30000; $i++) {
            $fs[] = $f = new Fiber(static function () { Fiber::suspend(); });
            $f->start();
        }
        return (rss_kib() - $before) / 30000;               // KiB per suspended fiber
    }
    PHP);

$body = static function () { suspend(); suspend(); };
spawn(static function () {})->getId();  // the runtime exists before measuring
suspend();
$before = rss_kib();
$cs = [];
for ($i = 0; $i < N; $i++) {
    $cs[] = spawn($body);
}
suspend();  // every coroutine runs up to its first suspension
$kib = (rss_kib() - $before) / N;

bench_header('memory of 100 000 suspended coroutines');
bench_report('RSS per suspended coroutine', $kib, 'KiB', 'RSS per suspended Fiber', $fibers, '<= 16 KiB', $kib <= 16.0);
