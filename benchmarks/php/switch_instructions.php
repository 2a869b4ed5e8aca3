<?php
// What a coroutine switch costs in instructions (callgrind, so the figure
// does not depend on a quiet machine): a round robin of two coroutines x N
// suspend(), minus the same script with no suspend, per suspend and switch;
// with the fiber observers told of every switch (async.fiber_observers=1)
// and without (what async.fiber_observers=auto does when no debugger or
// profiler is loaded: the switch pays one branch for them). Issue 25.
//
//   php -n benchmarks/php/switch_instructions.php BUILD_DIR [N]
declare(strict_types=1);

if (($argv[1] ?? '') === '--child') {
    $n = (int) $argv[2];
    $body = static function () use ($n) { for ($j = 0; $j < $n; $j++) Async\suspend(); };
    $a = Async\spawn($body);
    $b = Async\spawn($body);
    Async\await($a);
    Async\await($b);
    exit(0);
}
$build = realpath($argv[1] ?? 'build') ?: exit("usage: switch_instructions.php BUILD_DIR [N]\n");
$n = (int) ($argv[2] ?? 20000);
$instructions = function (string $ini, int $n) use ($build): int {
    $cmd = sprintf('valgrind --tool=callgrind --callgrind-out-file=/dev/null %s -n -d extension=%s -d async.backend_dir=%s %s %s --child %d 2>&1',
        escapeshellarg(PHP_BINARY), escapeshellarg("$build/ext-php/async.so"), escapeshellarg("$build/backends"),
        $ini, escapeshellarg(__FILE__), $n);
    preg_match('/Collected : (\d+)/', (string) shell_exec($cmd), $m) || exit("callgrind failed: $cmd\n");
    return (int) $m[1];
};
foreach (['' => 'no observers (one branch)', '-d async.fiber_observers=1' => 'observers told of every switch'] as $ini => $what) {
    $per = ($instructions($ini, $n) - $instructions($ini, 0)) / (2 * $n);
    printf("%-34s %6.0f instructions per suspend() and switch\n", $what, $per);
}
