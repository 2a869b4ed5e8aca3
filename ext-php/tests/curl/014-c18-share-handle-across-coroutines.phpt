--TEST--
C18: easy handles of five coroutines sharing a CurlShareHandle (cookies, DNS, TLS sessions, connections) overlap, see each other's cookies, and reuse the shared connections
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('https'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$share = curl_share_init();
foreach ([CURL_LOCK_DATA_COOKIE, CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION, CURL_LOCK_DATA_CONNECT] as $what) {
    curl_share_setopt($share, CURLSHOPT_SHARE, $what);
}

function shared_fetch($share, string $path): array
{
    $ch = curl_init(services_url('https', $path));
    curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_CAINFO => services_ca_file(),
        CURLOPT_SHARE => $share, CURLOPT_COOKIEFILE => '']);
    $body = curl_exec($ch);
    return [trim($body), curl_errno($ch), curl_getinfo($ch, CURLINFO_NUM_CONNECTS), $ch];
}

// A cookie set through one handle is seen by the others.
$ch = curl_init();
curl_setopt_array($ch, [CURLOPT_SHARE => $share, CURLOPT_COOKIEFILE => '']);
curl_setopt($ch, CURLOPT_COOKIELIST, "Set-Cookie: flavour=oat; domain=localhost; path=/");

foreach (['first round' => '/delay?s=0.2', 'second round' => '/delay?s=0.2'] as $round => $path) {
    $start = hrtime(true);
    $coroutines = [];
    for ($i = 0; $i < 5; $i++) {
        $coroutines[] = Async\spawn('shared_fetch', $share, $path);
    }
    $results = Async\await_all_or_fail($coroutines);
    $elapsed = (hrtime(true) - $start) / 1e9;
    $bodies = array_unique(array_map(fn($r) => "$r[0] errno $r[1]", $results));
    $connects = array_sum(array_map(fn($r) => $r[2], $results));
    $cookies = array_unique(array_map(fn($r) => count(array_filter(curl_getinfo($r[3], CURLINFO_COOKIELIST),
        fn($c) => str_contains($c, 'flavour'))), $results));
    echo "$round: ", implode('|', $bodies), " x", count($results), ", overlapped: ",
        $elapsed < 0.8 * services_time_scale() ? "yes" : "no ($elapsed s)",
        ", shared cookie seen: ", $cookies === [1] ? "yes" : "no", "\n";
    $news[$round] = $connects;
}
echo "new connections: first round ", $news['first round'], ", second round fewer: ",
    $news['second round'] < $news['first round'] ? "yes" : "no ({$news['second round']})", "\n";
?>
--EXPECT--
first round: slept 0.2 errno 0 x5, overlapped: yes, shared cookie seen: yes
second round: slept 0.2 errno 0 x5, overlapped: yes, shared cookie seen: yes
new connections: first round 5, second round fewer: yes
