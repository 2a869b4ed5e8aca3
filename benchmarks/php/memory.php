<?php
// Memory per suspended coroutine with 100 000 of them (issue 13 goals:
// <= 8 KiB of RSS and <= 8 KiB of memory_get_usage() each), against the
// suspended Fibers (30 000 of them) in a separate process; and how many
// suspended coroutines fit in memory_limit=128M, counted in a separate
// process that spawns until the next batch would cross the limit.
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

// The count under a memory_limit of 16M (a separate process): batches of
// 1000 coroutines suspended in delay(), until the next batch would not
// fit. 16M and not the default 128M, whose count takes a few GiB of RSS
// (the C stacks are outside memory_limit): the figure for 128M is
// extrapolated from the per-coroutine cost this run measures.
$fit = bench_in_child(<<<'PHP'
    function baseline(): float {
        $limit = 16 * 1024 * 1024;
        ini_set('memory_limit', (string) $limit);
        $body = static function () { Async\delay(600000); };
        $cs = [];
        while (true) {
            $before = memory_get_usage();
            for ($i = 0; $i < 1000; $i++) {
                $cs[] = Async\spawn($body);
            }
            Async\suspend();
            $per = (memory_get_usage() - $before) / 1000;
            // Room for the next batch, the array of coroutines doubling, and
            // Zend MM's next 2 MiB chunk.
            $next = memory_get_usage(true) + 1000 * $per + 16 * count($cs) + 2 * 1024 * 1024;
            if ($next > $limit) {
                break;
            }
        }
        $n = count($cs);
        ini_set('memory_limit', '-1');  // cancelling allocates an exception each
        foreach ($cs as $c) {
            $c->cancel();
        }
        return (float) $n;
    }
    PHP);

$body = static function () { suspend(); suspend(); };
spawn(static function () {})->getId();  // the runtime exists before measuring
suspend();
$before = rss_kib();
$usage = memory_get_usage();
$cs = [];
for ($i = 0; $i < N; $i++) {
    $cs[] = spawn($body);
}
suspend();  // every coroutine runs up to its first suspension
$kib = (rss_kib() - $before) / N;
$php = (memory_get_usage() - $usage) / N / 1024;

bench_header('memory of 100 000 suspended coroutines');
bench_report('RSS per suspended coroutine', $kib, 'KiB', 'RSS per suspended Fiber', $fibers, '<= 8 KiB', $kib <= 8.0);
bench_report('memory_get_usage() per suspended coroutine', $php, 'KiB', 'RSS per suspended Fiber', $fibers, '<= 8 KiB',
    $php <= 8.0);
printf("suspended coroutines that fit in memory_limit=16M: %d (measured); in 128M: about %d (at %.2f KiB each)\n",
    (int) $fit, (int) ($fit + 112 * 1024 / max($php, 0.01)), $php);
