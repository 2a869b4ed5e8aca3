--TEST--
C18: ten curl_exec() calls of 0.2 s over http in ten coroutines take about the time of one, and the scheduler never stalls
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// The first touch of the memory ten transfers use is work a process does
// once, not waiting: a first round, unmeasured, pays it.
$warm = [];
for ($i = 0; $i < 10; $i++) {
    $warm[] = Async\spawn(function () {
        $ch = curl_init(services_url('http', '/hello'));
        curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
        return curl_exec($ch);
    });
}
Async\await_all_or_fail($warm) === array_fill(0, 10, "hello\n") or die("warm-up failed");

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () {
        $ch = curl_init(services_url('http', '/delay?s=0.2'));
        curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
        $body = curl_exec($ch);
        $first = [$body, curl_errno($ch), curl_getinfo($ch, CURLINFO_RESPONSE_CODE)];
        // The same handle again: its connection is reused, as curl_exec() does.
        curl_setopt($ch, CURLOPT_URL, services_url('http', '/hello'));
        $again = curl_exec($ch);
        return [$first, $again, curl_getinfo($ch, CURLINFO_NUM_CONNECTS)];
    });
}
$results = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

$seen = [];
foreach ($results as [[$body, $errno, $code], $again, $connects]) {
    $seen[] = sprintf("%s errno %d code %d, then %s (new connections: %d)", trim($body), $errno, $code, trim($again), $connects);
}
echo implode("\n", array_unique($seen)), " x", count($results), "\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
slept 0.2 errno 0 code 200, then hello (new connections: 0) x10
overlapped: yes
stall below 50 ms: yes
