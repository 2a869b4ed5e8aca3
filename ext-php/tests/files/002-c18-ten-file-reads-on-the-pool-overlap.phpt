--TEST--
C18: with async.file_offload=always, ten coroutines reading ten 1 MiB files with fread() and fgets() let the scheduler run meanwhile (the reads go to the backend), with the right data
--INI--
async.file_offload=always
--FLAKY--
The stall ticker measures wall-clock lateness; another process on a 2-CPU machine can delay it (one retry, as run-tests.php gives every timing test).
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$base = sys_get_temp_dir() . '/tasync-reads-' . getmypid();
$data = [];
for ($i = 0; $i < 10; $i++) {
    $data[$i] = str_repeat("line $i of a file read by a coroutine " . str_repeat('.', 1000) . "\n", 1000);
    file_put_contents("$base-$i", $data[$i]);
}
$ticker = new StallTicker();
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($base, $i) {
        $f = fopen("$base-$i", 'r');
        // A digest of the data, not the data: building ten 1 MiB strings
        // side by side costs copies and page faults the ticker would count.
        $h = hash_init('md5');
        while (!feof($f)) {
            hash_update($h, $i % 2 ? fread($f, 65536) : fgets($f));
        }
        fclose($f);
        return hash_final($h);
    });
}
$results = Async\await_all_or_fail($coroutines, Async\timeout((int) (60000 * services_time_scale())));
$stall = $ticker->stop();
$ok = 0;
foreach ($results as $i => $s) {
    $ok += $s === md5($data[$i]) ? 1 : 0;
    unlink("$base-$i");
}
echo "results: $ok\n";
echo "the ticker ran meanwhile: ", $ticker->ticks > 3 ? "yes" : "no ({$ticker->ticks})", "\n";
echo "stall below 50 ms: ", $stall < 50 * services_time_scale() ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: 10
the ticker ran meanwhile: yes
stall below 50 ms: yes
