--TEST--
C18: ten shell_exec('sleep 0.2; echo $i') calls in ten coroutines finish in about the time of one, and the scheduler never stalls
--SKIPIF--
<?php
// Under valgrind the extension's fork of the whole process (from a pool
// thread, which valgrind runs one at a time with the main thread) takes
// seconds: the timing and the races this test pins measure valgrind there.
// The other proc/ tests keep these code paths under the leak check.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip the fork of a command under valgrind takes seconds: its timing measures valgrind');
?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(fn() => shell_exec("sleep 0.2; echo $i"));
}
$results = Async\await_all_or_fail($coroutines, Async\timeout((int) (20000 * services_time_scale())));
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

$ok = 0;
foreach ($results as $i => $out) {
    if ($out === "$i\n") {
        $ok++;
    } else {
        echo "coroutine $i got ", var_export($out, true), "\n";
    }
}
echo "results: $ok\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
echo "the ticker ran meanwhile: ", $ticker->ticks > 5 ? "yes" : "no ({$ticker->ticks})", "\n";
?>
--EXPECT--
results: 10
overlapped: yes
stall below 50 ms: yes
the ticker ran meanwhile: yes
