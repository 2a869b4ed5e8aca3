--TEST--
C18: ten coroutines calling proc_open() at once start their children without copying the process (posix_spawn on the pool), so a ticker coroutine never stalls 50 ms; each reads its child's output and exit code
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
$ticker = new StallTicker(1);
Async\delay(20);
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i) {
        $p = proc_open(['sh', '-c', 'sleep 0.2; echo "child $1"; exit $1', 'sh', (string) $i],
            [1 => ['pipe', 'w']], $pipes);
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
    if ($r === ["child $i\n", $i]) {
        $ok++;
    } else {
        echo "coroutine $i got ", var_export($r, true), "\n";
    }
}
echo "results: $ok\n";
echo "ballast intact: ", count($ballast) === 200000 && $ballast[199999][0] === chr(65 + 199999 % 26) ? "yes" : "no", "\n";
echo "overlapped: ", $elapsed < 1.5 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: 10
ballast intact: yes
overlapped: yes
stall below 50 ms: yes
