--TEST--
Out of descriptors (ulimit -n): the runtime's start (backend library, epoll or ring, wakeup descriptors, libuv's one-time pipe) and a signal watch fail with an exception that says so, leak nothing, and succeed once descriptors are closed; nothing aborts
--DESCRIPTION--
Issue 21: libuv's one-time set-up and libev's wakeup eventfd abort() the
process when they get no descriptor, and libuv 1.44 leaked its epoll
descriptor at each failed loop creation (a script that retried never got
its runtime). The backends now check first; the runtime's start fails
with an AsyncException at each try, freeing one descriptor after each,
until enough are free. The script runs in a child process under
`ulimit -n`, with every descriptor taken.
--EXTENSIONS--
posix
--FILE--
<?php
$file = __DIR__ . '/005-child.php';
file_put_contents($file, <<<'PHP'
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

$held = [];
while (($f = @fopen('/dev/null', 'r')) !== false) {
    $held[] = $f;
}
$failures = 0;
$other = [];
while (true) {
    try {
        await(spawn(fn() => 1));
        break;
    } catch (Async\AsyncException $e) {
        $failures++;
        if (!preg_match('/^Cannot start the True Async runtime: .*too many open files/i', $e->getMessage())) {
            $other[] = $e->getMessage();
        }
        if (!$held) {
            echo "never started: ", $e->getMessage(), "\n";
            exit(1);
        }
        fclose(array_pop($held));
    }
}
echo "the runtime started after failures that said why: ", $failures >= 1 && $failures <= 8 && !$other ? "yes" : "no ($failures, " . implode(' / ', $other) . ")", "\n";

while (($f = @fopen('/dev/null', 'r')) !== false) {
    $held[] = $f;
}
try {
    await(Async\signal(SIGUSR1), Async\timeout(1000));
    echo "watched\n";
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
echo "a timer: ", await(spawn(function () { delay(10); return "ok"; })), "\n";
for ($i = 0; $i < 4; $i++) {
    fclose(array_pop($held));
}
$w = Async\signal(SIGUSR1);
spawn(function () { delay(10); posix_kill(getmypid(), SIGUSR1); });
$got = await($w);
echo "then a signal wait: ", ($got instanceof Async\Signal ? $got->value : $got) === SIGUSR1 ? "ok" : "no", "\n";
echo "done\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
exec('ulimit -n 64; ' . "$php $args " . escapeshellarg($file) . ' 2>&1; echo "status $?"', $out);
echo implode("\n", $out), "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/005-child.php'); ?>
--EXPECT--
the runtime started after failures that said why: yes
Async\AsyncException: Too many open files
a timer: ok
then a signal wait: ok
done
status 0
