--TEST--
C18: file_get_contents() and fread() of a 64 MiB file that is not in the page cache (the default async.file_offload=auto) never stall the scheduler on any backend, io_uring included, and return the data
--SKIPIF--
<?php
if (!is_executable('/usr/bin/dd')) die('skip dd(1) is missing');
// Valgrind runs the pool's threads one at a time on a tenth of the speed: a
// 64 MiB transfer measures valgrind there, not the scheduler.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip the stall of a 64 MiB read under valgrind measures valgrind');
?>
--INI--
memory_limit=-1
--FLAKY--
The stall ticker measures wall-clock lateness; another process on a 2-CPU machine can delay it (one retry, as run-tests.php gives every timing test).
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$path = sys_get_temp_dir() . '/tasync-cold-' . getmypid() . '.dat';
$block = random_bytes(1 << 16);
$f = fopen($path, 'w');
for ($i = 0; $i < 1024; $i++) {
    fwrite($f, $block);
}
fclose($f);
$expect = md5(str_repeat($block, 1024));
// Written back, then dropped from the page cache (dd asks the kernel with
// posix_fadvise(POSIX_FADV_DONTNEED); iflag=nocache without a count).
$drop = fn() => exec('/usr/bin/dd if=' . escapeshellarg($path) . ' iflag=nocache count=0 status=none conv=fsync 2>&1; sync '
    . escapeshellarg($path) . ' 2>/dev/null; /usr/bin/dd if=' . escapeshellarg($path) . ' iflag=nocache count=0 status=none 2>&1');
$drop();

$ticker = new StallTicker();
$s = Async\await(Async\spawn(fn() => file_get_contents($path)));
$stall1 = $ticker->stop();
echo "file_get_contents: ", md5($s) === $expect ? "the data" : "wrong data", "\n";
unset($s);

$drop();
$ticker = new StallTicker();
$s = Async\await(Async\spawn(function () use ($path) {
    $f = fopen($path, 'r');
    $s = fread($f, 64 << 20);
    fclose($f);
    return $s;
}));
$stall2 = $ticker->stop();
echo "fread: ", md5($s) === $expect ? "the data" : "wrong data", "\n";
unlink($path);
$scale = services_time_scale();
echo "stall below 50 ms: ", max($stall1, $stall2) < 50 * $scale ? "yes" : "no ($stall1 ms, $stall2 ms)", "\n";
?>
--EXPECT--
file_get_contents: the data
fread: the data
stall below 50 ms: yes
