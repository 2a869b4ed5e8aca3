<?php
/*
 * A TaskGroup with a concurrency limit: eight downloads, at most three at a
 * time. Results come back in completion order while iterating, and all()
 * gives them by key in spawn order.
 *
 *   php -d extension=build/ext-php/async.so -d async.backend_dir=build/backends examples/php/taskgroup_limit.php
 */
use function Async\{await, delay};

$t0 = hrtime(true);
$ms = fn() => sprintf("%5.0f ms", (hrtime(true) - $t0) / 1e6);

$running = 0;
$group = new Async\TaskGroup(concurrency: 3);
foreach ([80, 30, 50, 20, 60, 10, 40, 70] as $i => $duration) {
    $group->spawnWithKey("file$i", function () use ($i, $duration, &$running, $ms) {
        $running++;
        echo "[{$ms()}] file$i starts ($running running)\n";
        delay($duration);
        $running--;
        if ($i === 5) {
            throw new RuntimeException("file$i: checksum mismatch");
        }
        return "$duration KB";
    });
}

foreach ($group as $key => [$result, $error]) {
    echo "[{$ms()}] $key: ", $error ? "failed, {$error->getMessage()}" : $result, "\n";
}

try {
    await($group->all());
} catch (RuntimeException $e) {
    echo "\nall() fails with the first error: {$e->getMessage()}\n";
}
echo "tasks spawned: ", count($group), "\n";
