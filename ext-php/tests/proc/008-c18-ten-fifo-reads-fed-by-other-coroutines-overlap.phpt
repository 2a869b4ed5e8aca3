--TEST--
C18: ten coroutines open and read ten FIFOs that ten other coroutines open and write 0.2 s later: the opens do not block the process, and the reads finish in about the time of one
--SKIPIF--
<?php if (!is_executable('/usr/bin/mkfifo')) die('skip mkfifo(1) is missing'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$dir = sys_get_temp_dir() . '/tasync-fifo-' . getmypid();
mkdir($dir);
for ($i = 0; $i < 10; $i++) {
    exec('/usr/bin/mkfifo ' . escapeshellarg("$dir/$i"));
}
$ticker = new StallTicker();
$start = hrtime(true);
$readers = [];
for ($i = 0; $i < 10; $i++) {
    $readers[] = Async\spawn(function () use ($dir, $i) {
        $f = fopen("$dir/$i", 'r');
        $s = stream_get_contents($f);
        fclose($f);
        return $s;
    });
    Async\spawn(function () use ($dir, $i) {
        Async\delay(200);
        $f = fopen("$dir/$i", 'w');
        fwrite($f, "fifo $i");
        fclose($f);
    });
}
$results = Async\await_all_or_fail($readers, Async\timeout((int) (20000 * services_time_scale())));
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();
$ok = 0;
foreach ($results as $i => $s) {
    $ok += $s === "fifo $i" ? 1 : 0;
}
echo "results: $ok\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";

// A writer that opens first waits for its reader; file_get_contents() too.
$w = Async\spawn(function () use ($dir) {
    $f = fopen("$dir/0", 'w');
    fwrite($f, "writer first");
    fclose($f);
});
Async\delay(50);
var_dump(Async\await(Async\spawn(fn() => file_get_contents("$dir/0"))));
Async\await($w);
var_dump(stream_get_meta_data($f = fopen("$dir/1", 'r'))['mode'], stream_get_meta_data($f)['blocked']);
fclose($f);
for ($i = 0; $i < 10; $i++) {
    unlink("$dir/$i");
}
rmdir($dir);
?>
--EXPECT--
results: 10
overlapped: yes
stall below 50 ms: yes
string(12) "writer first"
string(1) "r"
bool(true)
