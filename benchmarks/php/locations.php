<?php
// What spawn and suspension cost with the source locations the runtime keeps
// for introspection (getSpawnLocation(), getSuspendLocation(), the deadlock
// and stall reports): ns per await(spawn(fn() => null)) and per suspend()
// of a lone coroutine, median of 5 rounds.
//
// Each round runs in a process of its own on TASYNC_PHP_EXT (the async.so
// this script was started with; run.sh sets it), in this process when that
// is not set. With TASYNC_BASELINE_EXT=<another async.so> (a build of
// another commit, copied next to build/ext-php/async.so so that it finds
// libtasync) the same rounds run on that build too, interleaved with this
// one's, and the ratio this / baseline is printed:
//
//   cp build/ext-php/async.so build/ext-php/async-before.so     (at the old commit)
//   TASYNC_PHP_EXT=$PWD/build/ext-php/async.so TASYNC_BASELINE_EXT=$PWD/build/ext-php/async-before.so \
//     php -n -d extension=build/ext-php/async.so -d async.backend_dir=build/backends benchmarks/php/locations.php
declare(strict_types=1);

use function Async\await;
use function Async\spawn;
use function Async\suspend;

const SPAWNS = 200000;
const SUSPENDS = 1000000;
const ROUNDS = 5;

/** ns per await(spawn()) and per suspend(), one round. */
function round_ns(): array
{
    $fn = static function () {};
    for ($i = 0; $i < 1000; $i++) {
        await(spawn($fn));  // warm-up: the stack cache and the VM stacks
    }
    $t = hrtime(true);
    for ($i = 0; $i < SPAWNS; $i++) {
        await(spawn($fn));
    }
    $spawn = (hrtime(true) - $t) / SPAWNS;

    $body = static function (): int {
        $t = hrtime(true);
        for ($j = 0; $j < SUSPENDS; $j++) {
            suspend();
        }
        return hrtime(true) - $t;
    };
    $suspend = await(spawn($body)) / SUSPENDS;
    return [$spawn, $suspend];
}

if (($argv[1] ?? '') === '--round') {
    echo json_encode(round_ns());
    exit(0);
}

/** One round in a new process on the extension $ext. */
function child_round(string $ext): array
{
    $ini = ['-d ' . escapeshellarg('extension=' . $ext)];
    foreach (['async.backend_dir', 'async.reactor'] as $name) {
        $v = ini_get($name);
        if ($v !== false && $v !== '') {
            $ini[] = '-d ' . escapeshellarg("$name=$v");
        }
    }
    $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n ' . implode(' ', $ini) . ' '
        . escapeshellarg(__FILE__) . ' --round');
    $v = json_decode((string) $out, true);
    if (!is_array($v) || count($v) !== 2) {
        fwrite(STDERR, "the round's process failed: $out\n");
        exit(1);
    }
    return $v;
}

function median(array $xs): float
{
    sort($xs);
    return (float) $xs[intdiv(count($xs), 2)];
}

$baseline = getenv('TASYNC_BASELINE_EXT') ?: null;
$self = getenv('TASYNC_PHP_EXT') ?: null;
if ($baseline !== null && $self === null) {
    fwrite(STDERR, "TASYNC_BASELINE_EXT needs TASYNC_PHP_EXT (this build's async.so) too\n");
    exit(1);
}
$mine = $base = [[], []];
for ($r = 0; $r < ROUNDS; $r++) {
    // Each round in a fresh process, the two builds alternating, so that a
    // change of the machine's load hits both alike.
    [$s, $u] = $self !== null ? child_round($self) : round_ns();
    $mine[0][] = $s;
    $mine[1][] = $u;
    if ($baseline !== null) {
        [$s, $u] = child_round($baseline);
        $base[0][] = $s;
        $base[1][] = $u;
    }
}

printf("== source locations: spawn and suspension cost (backend: %s, median of %d rounds)\n",
    ini_get('async.reactor') ?: 'uv', ROUNDS);
$names = ['await(spawn(fn() => null))', 'suspend() of a lone coroutine'];
for ($k = 0; $k < 2; $k++) {
    if ($baseline === null) {
        printf("%-34s %8.1f ns/op\n", $names[$k], median($mine[$k]));
    } else {
        $m = median($mine[$k]);
        $b = median($base[$k]);
        printf("%-34s %8.1f ns/op   baseline %8.1f ns/op   ratio %.3f\n", $names[$k], $m, $b, $m / $b);
    }
}
