--TEST--
C18: ten proc_open() children fed through their stdin pipes and read through their stdout pipes by ten coroutines, each closed with proc_close(), finish in about the time of one
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// proc_open() forks in the calling thread as PHP does (a millisecond or two
// each; the caller lets the others run afterwards): the children start
// first, and the ticker watches their pipes and proc_close().
$procs = [];
for ($i = 0; $i < 10; $i++) {
    $procs[$i] = proc_open(['sh', '-c', 'sleep 0.2; tr a-z A-Z; exit ' . $i],
        [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $procs[$i] = [$procs[$i], $pipes];
}
$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i, $procs) {
        [$p, $pipes] = $procs[$i];
        fwrite($pipes[0], "child $i\n");
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        return [$out, proc_close($p)];
    });
}
unset($procs, $pipes);
$results = Async\await_all_or_fail($coroutines, Async\timeout((int) (20000 * services_time_scale())));
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

$ok = 0;
foreach ($results as $i => $r) {
    if ($r === ["CHILD $i\n", $i]) {
        $ok++;
    } else {
        echo "coroutine $i got ", var_export($r, true), "\n";
    }
}
echo "results: $ok\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: 10
overlapped: yes
stall below 50 ms: yes
