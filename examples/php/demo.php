<?php
/*
 * The first thing to run: three coroutines wait 300, 200 and 100 ms at the
 * same time, so the whole script takes about 300 ms (the longest wait),
 * not 600 ms (the sum). Then one of them is cancelled while it waits.
 *
 *   php -d extension=build/ext-php/async.so -d async.backend_dir=build/backends examples/php/demo.php
 *   ... -d async.reactor=uring   (or ev, or a path to a backend .so)
 */
use function Async\{spawn, await, await_all, delay, currentCoroutine};

$t0 = hrtime(true);
$ms = fn() => sprintf("%6.1f ms", (hrtime(true) - $t0) / 1e6);

$workers = [];
foreach ([300, 200, 100] as $wait) {
    $workers[] = spawn(function () use ($wait, $ms) {
        echo "[{$ms()}] coroutine ", currentCoroutine()->getId(), ": waiting $wait ms\n";
        delay($wait);
        echo "[{$ms()}] coroutine ", currentCoroutine()->getId(), ": done\n";
        return $wait;
    });
}
[$results] = await_all($workers);
printf("[%s] all done: %s ms of waiting took %s (the longest, not the sum)\n\n",
    $ms(), implode(' + ', $results), $ms());

// Cancellation: the coroutine is resumed with a CancellationError where it waits.
$slow = spawn(function () use ($ms) {
    try {
        delay(10_000);
    } catch (Async\CancellationError $e) {
        echo "[{$ms()}] slow coroutine: cancelled ({$e->getMessage()})\n";
        throw $e;
    } finally {
        echo "[{$ms()}] slow coroutine: cleaning up\n";
    }
});
delay(50);
$slow->cancel(new Async\CancellationError("the demo is over"));
try {
    await($slow);
} catch (Async\CancellationError) {
    echo "[{$ms()}] main: the slow coroutine ended cancelled\n";
}
echo "backend: ", ini_get('async.reactor'), "\n";
