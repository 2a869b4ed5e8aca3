--TEST--
C18: CURLOPT_TIMEOUT_MS and CURLOPT_CONNECTTIMEOUT_MS fail curl_exec() as libcurl does (CURLE_OPERATION_TIMEDOUT) while other coroutines run
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// A listener that never accepts, its queue full: connects to it hang.
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['socket' => ['backlog' => 0]]));
$address = stream_socket_get_name($server, false);
$fillers = [];
for ($i = 0; $i < 4; $i++) {
    $fillers[] = stream_socket_client("tcp://$address", $e, $s, 1, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
}

/* Valgrind slows the process, not the clock: longer timeouts there. */
$timeout = (int) (200 * services_time_scale());

function timed_fetch(string $url, array $options, int $timeout): string
{
    $ch = curl_init($url);
    curl_setopt_array($ch, $options + [CURLOPT_RETURNTRANSFER => true]);
    $start = hrtime(true);
    $r = curl_exec($ch);
    $ms = (hrtime(true) - $start) / 1e6;
    return sprintf("%s, errno %s, after about the timeout: %s", var_export($r, true),
        curl_errno($ch) === CURLE_OPERATION_TIMEDOUT ? 'CURLE_OPERATION_TIMEDOUT' : curl_errno($ch),
        $ms >= 0.75 * $timeout && $ms < $timeout + 1500 * services_time_scale() ? 'yes' : "no ($ms ms)");
}

$ticks = 0;
$ticker = Async\spawn(function () use (&$ticks) {
    for ($i = 0; $i < 10; $i++) {
        Async\delay(10);
        $ticks++;
    }
});
$total = Async\spawn('timed_fetch', services_url('http', '/delay?s=' . 10 * services_time_scale()), [CURLOPT_TIMEOUT_MS => $timeout], $timeout);
$connect = Async\spawn('timed_fetch', "http://$address/", [CURLOPT_CONNECTTIMEOUT_MS => $timeout], $timeout);
echo "TIMEOUT_MS: ", Async\await($total), "\n";
echo "CONNECTTIMEOUT_MS: ", Async\await($connect), "\n";
echo "the ticker ran meanwhile: ", $ticks >= 5 ? "yes" : "no ($ticks)", "\n";
Async\await($ticker);
?>
--EXPECT--
TIMEOUT_MS: false, errno CURLE_OPERATION_TIMEDOUT, after about the timeout: yes
CONNECTTIMEOUT_MS: false, errno CURLE_OPERATION_TIMEDOUT, after about the timeout: yes
the ticker ran meanwhile: yes
