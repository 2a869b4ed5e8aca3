<?php
/*
 * Zombies after disposeSafely(): the scope is closed, its coroutines are
 * not cancelled but go on as zombies (with a warning each). They do not
 * block awaitCompletion() nor the end of the program; awaitAfterCancellation()
 * waits for them. At the end of the program, zombies still running get
 * async.zombie_coroutine_timeout seconds, then are cancelled.
 *
 *   php -d extension=build/ext-php/async.so -d async.backend_dir=build/backends examples/php/zombies.php
 */
use function Async\{delay, timeout};

$scope = new Async\Scope();
$scope->spawn(function () {
    delay(30);
    echo "third-party task: finished on its own, as a zombie\n";
});
$scope->spawn(function () {
    try {
        delay(60_000);
    } catch (Async\CancellationError $e) {
        echo "stuck task: {$e->getMessage()}\n";
    }
});
delay(1);

$scope->disposeSafely();           // warns: Coroutine is zombie at ...
echo "disposed safely; closed: ", var_export($scope->isClosed(), true), "\n";

$scope->awaitCompletion(timeout(1000));
echo "awaitCompletion() returned at once: zombies are not active\n";

delay(50);
echo "the script ends; the stuck zombie gets async.zombie_coroutine_timeout = ",
    ini_get('async.zombie_coroutine_timeout'), " s\n";
