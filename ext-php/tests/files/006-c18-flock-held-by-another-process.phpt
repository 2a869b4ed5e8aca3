--TEST--
C18: flock(LOCK_EX) on a file another process holds locked waits in the coroutine (trying again after a growing delay) and gets the lock once that process releases it
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$path = sys_get_temp_dir() . '/tasync-flock-p-' . getmypid();
touch($path);
$php = getenv('TEST_PHP_EXECUTABLE');
$code = '$f = fopen($argv[1], "r"); flock($f, LOCK_EX); echo "locked\n"; fflush(STDOUT); usleep(300000);';
$p = proc_open([$php, '-n', '-r', $code, $path], [1 => ['pipe', 'w']], $pipes);
var_dump(fgets($pipes[1]));
$ticker = new StallTicker();
$start = hrtime(true);
$got = Async\await(Async\spawn(function () use ($path) {
    $f = fopen($path, 'r');
    $r = flock($f, LOCK_EX);
    fclose($f);
    return $r;
}));
$waited = (hrtime(true) - $start) / 1e6;
$stall = $ticker->stop();
var_dump($got);
echo "waited for the other process: ", $waited > 100 ? "yes" : "no ($waited ms)", "\n";
echo "stall below 50 ms: ", $stall < 50 * services_time_scale() ? "yes" : "no ($stall ms)", "\n";
proc_close($p);
unlink($path);
?>
--EXPECT--
string(7) "locked
"
bool(true)
waited for the other process: yes
stall below 50 ms: yes
