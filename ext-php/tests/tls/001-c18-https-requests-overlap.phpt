--TEST--
Rule C18: ten https:// requests of 0.2 s in ten coroutines (handshake, verification, read) take about the time of one, and so do ten tls:// connections
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('https'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$ctx = stream_context_create(['ssl' => ['cafile' => services_ca_file()]]);
$scale = services_time_scale();
// Under valgrind OpenSSL's handshakes (CPU work, ~1 ms each natively)
// slow down a hundredfold, not fortyfold (as in curl/002).
$stallScale = $scale > 1 ? 100.0 : 1.0;

// A first request pays OpenSSL's start; the steady state is measured.
file_get_contents(services_url('https', '/hello'), false, $ctx);

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(fn() => file_get_contents(services_url('https', '/delay?s=0.2'), false, $ctx));
}
$bodies = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
echo "https results: ", implode('|', array_unique(array_map('trim', $bodies))), " x", count($bodies), "\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $stallScale ? "yes" : "no ($stall ms)", "\n";

// tls:// by hand: the handshake at connect, then a request and its reply.
$url = parse_url(services_url('https', '/'));
$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($url, $ctx) {
        $s = stream_socket_client("tls://{$url['host']}:{$url['port']}", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
        fwrite($s, "GET /delay?s=0.2 HTTP/1.0\r\nHost: {$url['host']}\r\n\r\n");
        $reply = stream_get_contents($s);
        $crypto = stream_get_meta_data($s)['crypto']['protocol'] ?? 'none';
        fclose($s);
        return [substr($reply, 0, 15), trim(substr($reply, strpos($reply, "\r\n\r\n"))), $crypto];
    });
}
$replies = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
echo "tls results: ", implode('|', array_unique(array_map(fn($r) => implode(' ', $r), $replies))), " x", count($replies), "\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $stallScale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECTF--
https results: slept 0.2 x10
overlapped: yes
stall below 50 ms: yes
tls results: HTTP/1.1 200 OK slept 0.2 TLSv1.%d x10
overlapped: yes
stall below 50 ms: yes
