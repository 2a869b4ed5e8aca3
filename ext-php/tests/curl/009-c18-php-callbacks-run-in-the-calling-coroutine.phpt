--TEST--
C18: CURLOPT_WRITEFUNCTION, HEADERFUNCTION, PROGRESSFUNCTION and XFERINFOFUNCTION run in the coroutine that called curl_exec(), may suspend, interleave with another coroutine's transfer, and a callback that throws ends its transfer at once
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$log = [];

function fetch_with_callbacks(string $name, string $progressOption): array
{
    global $log;
    $me = Async\currentCoroutine()->getId();
    $body = '';
    $seen = ['write' => [], 'header' => [], 'progress' => []];
    $ch = curl_init(services_url('http', '/drip?n=3&s=0.15'));
    curl_setopt_array($ch, [
        CURLOPT_WRITEFUNCTION => function ($ch, string $data) use (&$body, &$seen, $me, $name) {
            global $log;
            $seen['write'][] = Async\currentCoroutine()->getId() === $me;
            $log[] = $name;
            Async\delay(5); // a callback may suspend
            $body .= $data;
            return strlen($data);
        },
        CURLOPT_HEADERFUNCTION => function ($ch, string $header) use (&$seen, $me) {
            $seen['header'][] = Async\currentCoroutine()->getId() === $me;
            return strlen($header);
        },
        CURLOPT_NOPROGRESS => false,
        $progressOption => function ($ch, ...$counts) use (&$seen, $me) {
            $seen['progress'][] = Async\currentCoroutine()->getId() === $me;
            return 0;
        },
    ]);
    $r = curl_exec($ch);
    $where = [];
    foreach ($seen as $kind => $flags) {
        $where[] = $kind . ': ' . (count($flags) > 0 && !in_array(false, $flags, true) ? 'caller' : 'ELSEWHERE ' . json_encode($flags));
    }
    return [$r, str_replace("\n", ' ', $body), implode(', ', $where)];
}

$a = Async\spawn('fetch_with_callbacks', 'A', CURLOPT_PROGRESSFUNCTION);
$b = Async\spawn('fetch_with_callbacks', 'B', CURLOPT_XFERINFOFUNCTION);
foreach (['A (PROGRESSFUNCTION)' => $a, 'B (XFERINFOFUNCTION)' => $b] as $name => $co) {
    [$r, $body, $where] = Async\await($co);
    echo "$name: ", var_export($r, true), ", body '$body', $where\n";
}
$firstB = array_search('B', $log, true);
$lastA = max(array_keys($log, 'A', true));
echo "writes interleaved: ", $firstB !== false && $firstB < $lastA ? "yes" : "no (" . implode('', $log) . ")", "\n";

// A callback that throws: the exception leaves curl_exec() at once.
$ch = curl_init(services_url('http', '/drip?n=3&s=0.3'));
curl_setopt($ch, CURLOPT_WRITEFUNCTION, function ($ch, string $data) {
    throw new RuntimeException('stop here');
});
$start = hrtime(true);
try {
    Async\await(Async\spawn(fn() => curl_exec($ch)));
} catch (RuntimeException $e) {
    $ms = (hrtime(true) - $start) / 1e6;
    echo "exception: ", $e->getMessage(), ", ended at once: ", $ms < 450 * services_time_scale() ? "yes" : "no ($ms ms)", "\n";
}
echo "curl_errno: ", curl_errno($ch) === CURLE_WRITE_ERROR ? "CURLE_WRITE_ERROR" : curl_errno($ch), "\n";
curl_setopt($ch, CURLOPT_WRITEFUNCTION, null);
curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
curl_setopt($ch, CURLOPT_URL, services_url('http', '/hello'));
echo "reused: ", var_export(Async\await(Async\spawn(fn() => curl_exec($ch))), true), "\n";
?>
--EXPECT--
A (PROGRESSFUNCTION): true, body '0 1 2 ', write: caller, header: caller, progress: caller
B (XFERINFOFUNCTION): true, body '0 1 2 ', write: caller, header: caller, progress: caller
writes interleaved: yes
exception: stop here, ended at once: yes
curl_errno: CURLE_WRITE_ERROR
reused: 'hello
'
