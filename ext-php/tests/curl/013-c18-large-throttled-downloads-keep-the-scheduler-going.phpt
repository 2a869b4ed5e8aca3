--TEST--
C18: two downloads throttled by CURLOPT_MAX_RECV_SPEED_LARGE (RETURNTRANSFER and CURLOPT_FILE) arrive complete in two coroutines while a third keeps ticking
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// 2 000 000 bytes at 4 MB/s: about half a second each. Under valgrind,
// which slows the process and not the clock, PHP's own appending of a
// megabyte to a RETURNTRANSFER buffer takes longer than the throttle: there
// only the data is checked, on 200 kB.
$native = services_time_scale() == 1.0;
$n = $native ? 200000 : 20000;
$speed = 4000000;

function download_pair(int $n, int $speed): array
{
    $memory = Async\spawn(function () use ($n, $speed) {
        $ch = curl_init(services_url('http', "/big?n=$n"));
        curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_MAX_RECV_SPEED_LARGE => $speed]);
        $body = curl_exec($ch);
        return [strlen($body), $body === str_repeat('0123456789', $n)];
    });
    $file = Async\spawn(function () use ($n, $speed) {
        $out = tmpfile();
        $ch = curl_init(services_url('http', "/big?n=$n"));
        curl_setopt_array($ch, [CURLOPT_FILE => $out, CURLOPT_MAX_RECV_SPEED_LARGE => $speed]);
        $r = curl_exec($ch);
        $size = fstat($out)['size'];
        rewind($out);
        return [$r, $size, stream_get_contents($out, 20)];
    });
    return [Async\await($memory), Async\await($file)];
}


$ticks = 0;
$stop = false;
$ticker = Async\spawn(function () use (&$ticks, &$stop) {
    while (!$stop) {
        Async\delay(10);
        $ticks++;
    }
});
$start = hrtime(true);
[[$length, $same], [$r, $size, $head]] = download_pair($n, $speed);
$elapsed = (hrtime(true) - $start) / 1e9;
$stop = true;
Async\await($ticker);
echo "RETURNTRANSFER: ", $length === 10 * $n ? "all bytes" : "$length bytes", ", ", $same ? "intact" : "CORRUPT", "\n";
echo "CURLOPT_FILE: ", var_export($r, true), ", ", $size === 10 * $n ? "all bytes" : "$size bytes", " on disk, starting $head\n";
$alone = 10 * $n / $speed;
echo "throttled: ", !$native || $elapsed > 0.6 * $alone ? "yes" : "no ($elapsed s)", "\n";
echo "overlapped: ", !$native || $elapsed < 1.8 * $alone ? "yes" : "no ($elapsed s)", "\n";
echo "ticked meanwhile: ", !$native || $ticks >= 15 ? "yes" : "no ($ticks)", "\n";
?>
--EXPECT--
RETURNTRANSFER: all bytes, intact
CURLOPT_FILE: true, all bytes on disk, starting 01234567890123456789
throttled: yes
overlapped: yes
ticked meanwhile: yes
