--TEST--
C18: curl_multi_exec()/curl_multi_select() loops in four coroutines, three transfers of 0.2 s each, all overlap without stalling the scheduler
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http', 'https'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

function fetch_all(array $urls): array
{
    $mh = curl_multi_init();
    $handles = [];
    foreach ($urls as $i => $url) {
        $ch = curl_init($url);
        curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
        curl_setopt($ch, CURLOPT_CAINFO, services_ca_file());
        curl_multi_add_handle($mh, $ch);
        $handles[$i] = $ch;
    }
    $done = [];
    do {
        $status = curl_multi_exec($mh, $active);
        while ($info = curl_multi_info_read($mh)) {
            $done[] = $info['result'];
        }
        if ($active) {
            curl_multi_select($mh, 5.0);
        }
    } while ($active && $status === CURLM_OK);
    $bodies = [];
    foreach ($handles as $i => $ch) {
        $bodies[$i] = trim(curl_multi_getcontent($ch)) . ' ' . curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
        curl_multi_remove_handle($mh, $ch);
    }
    curl_multi_close($mh);
    return [$status, $done, $bodies];
}

// What a process pays once is not waiting: OpenSSL's start (~15 ms of CPU
// in its first TLS connection, as in plain PHP) and the first touch of the
// memory the handshakes use. A first round, unmeasured, pays it.
$warm = [];
for ($i = 0; $i < 4; $i++) {
    $warm[] = Async\spawn('fetch_all', array_fill(0, 3, services_url($i % 2 ? 'https' : 'http', '/hello')));
}
Async\await_all_or_fail($warm);

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 4; $i++) {
    $kind = $i % 2 ? 'https' : 'http';
    $coroutines[] = Async\spawn('fetch_all', [
        services_url($kind, '/delay?s=0.2'),
        services_url($kind, '/delay?s=0.2'),
        services_url($kind, '/delay?s=0.2'),
    ]);
}
$results = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();
// Under valgrind OpenSSL's handshakes (CPU work, ~1 ms each natively)
// slow down a hundredfold, not twentyfold.
$stallScale = $scale > 1 ? 100.0 : 1.0;

foreach ($results as $i => [$status, $done, $bodies]) {
    echo "coroutine $i: status $status, results ", implode(',', $done), ", ", implode(' | ', $bodies), "\n";
}
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $stallScale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
coroutine 0: status 0, results 0,0,0, slept 0.2 200 | slept 0.2 200 | slept 0.2 200
coroutine 1: status 0, results 0,0,0, slept 0.2 200 | slept 0.2 200 | slept 0.2 200
coroutine 2: status 0, results 0,0,0, slept 0.2 200 | slept 0.2 200 | slept 0.2 200
coroutine 3: status 0, results 0,0,0, slept 0.2 200 | slept 0.2 200 | slept 0.2 200
overlapped: yes
stall below 50 ms: yes
