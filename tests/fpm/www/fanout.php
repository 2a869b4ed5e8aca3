<?php
// A page that fans out to 10 coroutines, each a 20 ms wait and a round
// trip to Redis (when the suite's Redis runs) or to nginx itself.
use function Async\{spawn, await, delay};

$redis = getenv('TASYNC_TEST_REDIS_PORT');
$http = (int) ($_SERVER['SERVER_PORT'] ?? 0);
$t = hrtime(true);
$jobs = [];
for ($i = 0; $i < 10; $i++) {
    $jobs[] = spawn(function () use ($i, $redis, $http) {
        delay(20);
        if ($redis) {
            $s = stream_socket_client("tcp://127.0.0.1:$redis", $errno, $errstr, 5);
            fwrite($s, "*2\r\n\$4\r\nECHO\r\n\$" . strlen("job$i") . "\r\njob$i\r\n");
            fgets($s);
            $v = rtrim(fgets($s));
        } else {
            $s = stream_socket_client("tcp://127.0.0.1:$http", $errno, $errstr, 5);
            fwrite($s, "GET /static.txt HTTP/1.0\r\nHost: localhost\r\n\r\n");
            $body = explode("\r\n\r\n", stream_get_contents($s), 2)[1] ?? '';
            $v = trim($body) === 'static' ? "job$i" : "bad";
        }
        fclose($s);
        return $v;
    });
}
$out = [];
foreach ($jobs as $j) {
    $out[] = await($j);
}
header('Content-Type: application/json');
echo json_encode(['pid' => getmypid(), 'results' => $out, 'ms' => (hrtime(true) - $t) / 1e6,
    'via' => $redis ? 'redis' : 'http']), "\n";
