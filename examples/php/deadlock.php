<?php
/*
 * A deadlock report: two coroutines wait for each other. When nothing can
 * run any more, PHP warns with where each one is stuck, cancels them, and
 * ends with a fatal Async\DeadlockError (exit status 255).
 *
 *   php -d extension=build/ext-php/async.so -d async.backend_dir=build/backends examples/php/deadlock.php
 */
use function Async\{spawn, await, suspend};

$first = spawn(function () use (&$second) {
    suspend();
    await($second);   // waits for the second one...
});
$second = spawn(function () use ($first) {
    suspend();
    await($first);    // ...which waits for the first one
});
echo "the script ends; the coroutines cannot\n";
