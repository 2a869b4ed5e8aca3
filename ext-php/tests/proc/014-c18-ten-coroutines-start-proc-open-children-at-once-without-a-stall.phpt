--TEST--
C18: ten coroutines calling proc_open() at once start their children without copying the process (posix_spawn on the pool), so a ticker coroutine never stalls 50 ms; each reads its child's output and exit code
--SKIPIF--
<?php
// Valgrind runs glibc's posix_spawn (CLONE_VM|CLONE_VFORK) as a fork of the
// whole valgrind process, seconds each: the stall would measure valgrind.
// 015-017 keep the spawn under the leak check.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip valgrind runs posix_spawn as a fork of itself: the stall would measure valgrind');
?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// PHP's own proc_open() fork()s in the calling thread: the parent then takes
// a copy-on-write fault for every page it touches until the child has called
// execve(), tens of milliseconds on a virtual machine. A larger process makes
// that worse, as in a real application: the ballast below is written, so its
// pages are resident and each fork has to write-protect them all.
$ballast = [];
for ($i = 0; $i < 200000; $i++) {
    $ballast[] = str_repeat(chr(65 + $i % 26), 100 + $i % 50);
}
// What the machine adds: the stall a ticker sees while another process
// starts ten such children (they compete for the CPU with this process;
// on a loaded 2-core machine that alone can exceed 50 ms).
$ticker = new StallTicker();
Async\delay(20);
$outside = popen('for i in 0 1 2 3 4 5 6 7 8 9; do sh -c "read line" </dev/null & done; wait', 'r');
stream_get_contents($outside);
pclose($outside);
Async\delay(100);
$machine = $ticker->stop();

$ticker = new StallTicker();
Async\delay(20);
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i) {
        // The child waits for a line rather than running sleep(1): the test
        // starts ten processes, not twenty, on a machine others load too.
        $p = proc_open(['sh', '-c', 'read line; echo "child $1 $line"; exit $1', 'sh', (string) $i],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
        Async\delay(200);
        fwrite($pipes[0], "fed\n");
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        return [$out, proc_close($p)];
    });
}
$results = Async\await_all_or_fail($coroutines, Async\timeout((int) (20000 * services_time_scale())));
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

$ok = 0;
foreach ($results as $i => $r) {
    if ($r === ["child $i fed\n", $i]) {
        $ok++;
    } else {
        echo "coroutine $i got ", var_export($r, true), "\n";
    }
}
echo "results: $ok\n";
echo "ballast intact: ", count($ballast) === 200000 && $ballast[199999][0] === chr(65 + 199999 % 26) ? "yes" : "no", "\n";
echo "overlapped: ", $elapsed < 1.5 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms (plus what the machine adds): ", $stall < 50 * $scale + $machine ? "yes" : "no ($stall ms, the machine $machine ms)", "\n";
?>
--EXPECT--
results: 10
ballast intact: yes
overlapped: yes
stall below 50 ms (plus what the machine adds): yes
