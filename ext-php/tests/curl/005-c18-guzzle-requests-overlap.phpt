--TEST--
C18: Guzzle's default handlers (curl_exec for synchronous requests, a shared curl multi handle for promises) overlap the requests of ten coroutines
--INI--
pcre.jit=0
error_reporting=E_ALL & ~E_DEPRECATED
--EXTENSIONS--
curl
--SKIPIF--
<?php
require __DIR__ . '/../include/services.inc';
services_skip('http');
if (!is_file('/usr/share/php/GuzzleHttp/autoload.php')) die('skip Debian package php-guzzlehttp-guzzle is not installed');
?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
require '/usr/share/php/GuzzleHttp/autoload.php';

$client = new GuzzleHttp\Client(['http_errors' => false]);
$scale = services_time_scale();
// Loading and compiling Guzzle's classes, and the first touch of the
// memory ten requests use, are CPU work a process does once, not waiting:
// a first round, unmeasured, pays it.
$warm = [];
for ($i = 0; $i < 10; $i++) {
    $warm[] = Async\spawn(fn() => [$client->get(services_url('http', '/hello')),
        $client->getAsync(services_url('http', '/hello'))->wait()]);
}
Async\await_all_or_fail($warm);

foreach (['get' => fn($url) => $client->get($url), 'getAsync()->wait' => fn($url) => $client->getAsync($url)->wait()] as $how => $request) {
    $ticker = new StallTicker();
    $start = hrtime(true);
    $coroutines = [];
    for ($i = 0; $i < 10; $i++) {
        $coroutines[] = Async\spawn(function () use ($request) {
            $response = $request(services_url('http', '/delay?s=0.2'));
            return $response->getStatusCode() . ' ' . trim((string) $response->getBody());
        });
    }
    $results = Async\await_all_or_fail($coroutines);
    $elapsed = (hrtime(true) - $start) / 1e9;
    $stall = $ticker->stop();
    echo "$how: ", implode('|', array_unique($results)), " x", count($results), "\n";
    echo "  overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
    echo "  stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
}

// Errors reach Guzzle as curl reports them.
try {
    $client->get('http://127.0.0.1:1/');
} catch (GuzzleHttp\Exception\ConnectException $e) {
    echo "refused: ", preg_match('/cURL error 7: /', $e->getMessage()) ? "cURL error 7" : $e->getMessage(), "\n";
}
?>
--EXPECT--
get: 200 slept 0.2 x10
  overlapped: yes
  stall below 50 ms: yes
getAsync()->wait: 200 slept 0.2 x10
  overlapped: yes
  stall below 50 ms: yes
refused: cURL error 7
