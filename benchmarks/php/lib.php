<?php
// Shared helpers of the PHP benchmarks: timing, the Fiber baseline in a
// separate process (PHP's Fibers measured alone, without the runtime), and
// the result lines every script prints.

declare(strict_types=1);

function bench_now(): float
{
    return hrtime(true) / 1e9;
}

/**
 * Runs $code (PHP source defining the function baseline(): float) in a new
 * PHP process with the same binary and ini, without using the async API, and
 * returns what baseline() returned.
 */
function bench_in_child(string $code): float
{
    $file = tempnam(sys_get_temp_dir(), 'tasync-bench-');
    file_put_contents($file, "<?php\n" . $code . "\necho json_encode(baseline());\n");
    $ini = [];
    foreach (['extension', 'async.backend_dir', 'async.reactor', 'memory_limit'] as $name) {
        $v = ini_get($name);
        if ($v !== false && $v !== '') {
            $ini[] = '-d ' . escapeshellarg("$name=$v");
        }
    }
    $ext = getenv('TASYNC_PHP_EXT');
    $cmd = escapeshellarg(PHP_BINARY) . ' -n ' . ($ext ? '-d ' . escapeshellarg("extension=$ext") . ' ' : '')
        . implode(' ', $ini) . ' ' . escapeshellarg($file);
    $out = shell_exec($cmd);
    unlink($file);
    $v = json_decode((string) $out, true);
    if (!is_float($v) && !is_int($v)) {
        fwrite(STDERR, "baseline process failed: $out\n");
        exit(1);
    }
    return (float) $v;
}

/** Prints one result line: measured, baseline, ratio and the goal. */
function bench_report(string $what, float $value, string $unit, string $baselineName, float $baseline,
                      string $goal, bool $met): void
{
    $ratio = $baseline > 0 ? $value / $baseline : INF;
    printf("%-44s %10.3f %-5s %-32s %10.3f %-5s %7.2fx  %-14s %s\n", $what, $value, $unit, $baselineName,
        $baseline, $unit, $ratio, $goal, $met ? 'goal met' : 'GOAL MISSED');
}

function bench_header(string $title): void
{
    printf("== %s (backend: %s)\n", $title, ini_get('async.reactor') ?: 'uv');
    printf("%-44s %16s %-32s %16s %8s  %-14s\n", 'measured', 'value', 'baseline (same script)', 'value', 'ratio',
        'goal');
}
