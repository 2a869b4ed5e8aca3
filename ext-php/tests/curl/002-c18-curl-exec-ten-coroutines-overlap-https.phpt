--TEST--
C18: ten curl_exec() calls of 0.2 s over https (verified against the test CA) in ten coroutines take about the time of one, and the scheduler never stalls
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('https'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// What a process pays once is not waiting: OpenSSL's start (~15 ms of CPU
// in its first TLS connection, as in plain PHP) and the first touch of the
// memory ten handshakes use. A first round, unmeasured, pays it.
$warm = [];
for ($i = 0; $i < 10; $i++) {
    $warm[] = Async\spawn(function () {
        $ch = curl_init(services_url('https', '/hello'));
        curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_CAINFO => services_ca_file()]);
        return curl_exec($ch);
    });
}
Async\await_all_or_fail($warm) === array_fill(0, 10, "hello\n") or die("warm-up failed");

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () {
        $ch = curl_init(services_url('https', '/delay?s=0.2'));
        curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
        curl_setopt($ch, CURLOPT_CAINFO, services_ca_file());
        $body = curl_exec($ch);
        $first = [$body, curl_errno($ch), curl_getinfo($ch, CURLINFO_RESPONSE_CODE)];
        // The same handle again: its connection is reused, as curl_exec() does.
        curl_setopt($ch, CURLOPT_URL, services_url('https', '/hello'));
        $again = curl_exec($ch);
        return [$first, $again, curl_getinfo($ch, CURLINFO_NUM_CONNECTS)];
    });
}
$results = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();
// Under valgrind OpenSSL's handshakes (CPU work, ~1 ms each natively)
// slow down a hundredfold, not twentyfold.
$stallScale = $scale > 1 ? 100.0 : 1.0;

$seen = [];
foreach ($results as [[$body, $errno, $code], $again, $connects]) {
    $seen[] = sprintf("%s errno %d code %d, then %s (new connections: %d)", trim($body), $errno, $code, trim($again), $connects);
}
echo implode("\n", array_unique($seen)), " x", count($results), "\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $stallScale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
slept 0.2 errno 0 code 200, then hello (new connections: 0) x10
overlapped: yes
stall below 50 ms: yes
