<?php
// 10 000 concurrent delay(10): the wall time to finish them all, against a
// single delay(10) and against the page-touch floor, measured in the same
// script (issue 13 goals: a second burst <= 40 ms; a first burst <= 1.2x
// the floor).
//
// Three bursts in one process. The first ("cold") runs on fresh memory:
// every coroutine's C stack top page (which also holds its first VM stack
// page) and the PHP objects of the burst are touched for the first time,
// which costs a page fault each (10-30 us on the VM this was first
// measured on, about 2.6 us on the machine of 2026-11-25). The floor
// is the time plain C takes to fault in that many fresh pages
// (benchmarks/page-touch: one page per coroutine plus the Zend MM bytes
// the burst peaked at; the core's own records are left out of the floor).
// The later bursts ("warm") reuse what the first left: the stack pool keeps
// a burst's stacks (and the core its coroutine records) for 10 s after they
// were last needed, whatever async.stack_cache says (that is the minimum
// kept for ever). Minor page faults per burst (getrusage) are printed too:
// they do not depend on the machine's load. For information, not a goal,
// the script also times the same number of pages with N of them laid out as
// the coroutines' stack tops are (one every stack stride): on this VM a page
// costs more the fewer of its neighbours in the same 2 MiB region are
// touched with it, so the layout alone costs more than the floor.
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\await_all;
use function Async\delay;
use function Async\spawn;

const N = 10000;

/** $stacks of the $pages laid out $stride pages apart, as stack tops are. */
function page_touch_ms(int $pages, int $stacks = 0, int $stride = 1, int $guard = 0): ?float
{
    $ext = getenv('TASYNC_PHP_EXT') ?: (string) ini_get('extension');
    $tool = getenv('TASYNC_PAGE_TOUCH') ?: dirname($ext, 2) . '/benchmarks/page-touch';
    if (!is_file($tool)) {
        return null;
    }
    $args = $stacks > 0 ? " $pages $stacks $stride" . ($guard > 0 ? " $guard" : '') : " $pages";
    $out = shell_exec(escapeshellarg($tool) . $args);
    return is_numeric(trim((string) $out)) ? (float) $out : null;
}

/** Pages from one coroutine stack top to the next, as the core's stack pool
 * lays them out (core/src/coroutine/stack_pool.cpp: the stack, a 64 KiB
 * guard, one more page when that makes an even number). */
function stack_stride_pages(): int
{
    return stack_usable_pages() + stack_guard_pages();
}

/** The guard pages at the bottom of each stride. */
function stack_guard_pages(): int
{
    return (stack_usable_pages() + 16) % 2 === 0 ? 17 : 16;
}

function stack_usable_pages(): int
{
    $size = (string) ini_get('async.stack_size');
    $bytes = (int) $size;
    $unit = strtoupper(substr($size, -1));
    $bytes *= ['K' => 1024, 'M' => 1 << 20, 'G' => 1 << 30][$unit] ?? 1;
    return intdiv(max($bytes ?: 256 * 1024, 16 * 1024) + 4095, 4096);
}

function minflt(): int
{
    return getrusage()['ru_minflt'];
}

$t = bench_now();
delay(10);
$one = (bench_now() - $t) * 1e3;

/** [milliseconds, minor faults, peak Zend MM bytes above the start] */
function burst(): array
{
    $body = static function () { delay(10); };
    $cs = [];
    memory_reset_peak_usage();
    $m0 = memory_get_usage();
    $f0 = minflt();
    $t = bench_now();
    for ($i = 0; $i < N; $i++) {
        $cs[] = spawn($body);
    }
    await_all($cs);
    $ms = (bench_now() - $t) * 1e3;
    return [$ms, minflt() - $f0, memory_get_peak_usage() - $m0];
}

[$cold, $coldFaults, $peakBytes] = burst();
[$warm, $warmFaults] = burst();
[$warm2, $warm2Faults] = burst();

// The floor: as many fresh pages as the burst needed at least, faulted in
// by plain C, before and after (the lower counts: the machine is shared).
$pages = N + intdiv($peakBytes + 4095, 4096);
$floors = array_filter([page_touch_ms($pages), page_touch_ms($pages)], static fn ($v) => $v !== null);
$floor = $floors ? min($floors) : null;
// Not a goal: the same pages with N of them laid out as the stack tops are.
$stride = stack_stride_pages();
$laidOut = array_filter([page_touch_ms($pages, N, $stride), page_touch_ms($pages, N, $stride)],
    static fn ($v) => $v !== null);
// Not a goal either: and each stack prepared as the pool prepares a fresh
// one (its guard installed, its top page populated). With the second
// burst's time (the same work on warm memory) added, that is about the
// least a first burst can take on this machine with guarded stacks.
$guard = stack_guard_pages();
$prepared = array_filter([page_touch_ms($pages, N, $stride, $guard), page_touch_ms($pages, N, $stride, $guard)],
    static fn ($v) => $v !== null);

bench_header('10 000 concurrent delay(10), async.stack_cache=' . ini_get('async.stack_cache'));
if ($floor !== null) {
    bench_report('wall time, first burst (cold memory)', $cold, 'ms', "touching $pages fresh pages in C", $floor,
        '<= 1.2x floor', $cold <= 1.2 * $floor);
} else {
    bench_report('wall time, first burst (cold memory)', $cold, 'ms', 'one delay(10)', $one, '(no page-touch)', false);
}
bench_report('wall time, second burst', $warm, 'ms', 'one delay(10)', $one, '<= 40 ms', $warm <= 40.0);
bench_report('wall time, third burst', $warm2, 'ms', 'one delay(10)', $one, '<= 40 ms', $warm2 <= 40.0);
if ($floor !== null && $laidOut) {
    printf("(not a goal) the same pages in C with %d of them %d pages apart, as stack tops are: %.3f ms, %.2fx the floor\n",
        N, $stride, min($laidOut), min($laidOut) / $floor);
}
if ($floor !== null && $prepared) {
    printf("(not a goal) and each stack prepared as the stack pool prepares a fresh one (%d guard pages, top populated): %.3f ms, %.2fx the floor; plus the second burst's %.1f ms: %.2fx the floor\n",
        $guard, min($prepared), min($prepared) / $floor, $warm, (min($prepared) + $warm) / $floor);
}
printf("minor page faults per burst: first %d, second %d, third %d (floor: %d pages); load average %s\n",
    $coldFaults, $warmFaults, $warm2Faults, $pages,
    implode(' ', array_slice(explode(' ', (string) file_get_contents('/proc/loadavg')), 0, 3)));
