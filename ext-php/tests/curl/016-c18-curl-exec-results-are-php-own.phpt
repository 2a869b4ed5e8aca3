--TEST--
C18: curl_exec() in a coroutine returns exactly what PHP's returns (body string, empty string, true, false; curl_errno, curl_error, curl_getinfo; CURLOPT_FILE, WRITEHEADER and STDERR streams flushed), and does so while another transfer runs
--INI--
pcre.jit=0
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

/* Each case: options, and what to report besides curl_exec()'s result. */
function run_case(string $name): string
{
    $files = ['out' => tmpfile(), 'head' => tmpfile(), 'err' => tmpfile()];
    $cases = [
        'body' => [CURLOPT_URL => services_url('http', '/hello'), CURLOPT_RETURNTRANSFER => true],
        'empty body' => [CURLOPT_URL => services_url('http', '/hello'), CURLOPT_RETURNTRANSFER => true, CURLOPT_NOBODY => true],
        'status 404' => [CURLOPT_URL => services_url('http', '/status/404'), CURLOPT_RETURNTRANSFER => true],
        'fail on error' => [CURLOPT_URL => services_url('http', '/status/404'), CURLOPT_RETURNTRANSFER => true, CURLOPT_FAILONERROR => true],
        'to stdout' => [CURLOPT_URL => services_url('http', '/hello')],
        'files' => [CURLOPT_URL => services_url('http', '/hello'), CURLOPT_FILE => $files['out'],
            CURLOPT_WRITEHEADER => $files['head'], CURLOPT_VERBOSE => true, CURLOPT_STDERR => $files['err']],
        'refused' => [CURLOPT_URL => 'http://127.0.0.1:1/', CURLOPT_RETURNTRANSFER => true],
        'post' => [CURLOPT_URL => services_url('http', '/echo'), CURLOPT_RETURNTRANSFER => true, CURLOPT_POSTFIELDS => ['k' => 'v']],
    ];
    $ch = curl_init();
    curl_setopt_array($ch, $cases[$name]);
    ob_start();
    $r = curl_exec($ch);
    $printed = ob_get_clean();
    $report = [var_export(is_string($r) ? preg_replace('/-{20,}\w+/', 'BOUNDARY', $r) : $r, true),
        'errno ' . curl_errno($ch), 'error ' . (curl_error($ch) === '' ? 'empty' : preg_replace('/after \d+ ms/', 'after N ms', curl_error($ch))),
        'code ' . curl_getinfo($ch, CURLINFO_RESPONSE_CODE), 'printed ' . var_export($printed, true)];
    if ($name === 'files') {
        foreach ($files as $k => $f) {
            // Read through a second descriptor: what curl_exec() flushed.
            $report[] = "$k " . (filesize(stream_get_meta_data($f)['uri']) > 0 ? 'written' : 'EMPTY');
        }
    }
    return str_replace("\n", '\n', implode(', ', $report));
}

$names = ['body', 'empty body', 'status 404', 'fail on error', 'to stdout', 'files', 'refused', 'post'];

// PHP's own, before any coroutine exists.
$plain = [];
foreach ($names as $name) {
    $plain[$name] = run_case($name);
}

// The same in coroutines, while a slow transfer runs in another one.
$slowDone = false;
$slow = Async\spawn(function () use (&$slowDone) {
    $ch = curl_init(services_url('http', '/delay?s=' . 0.5 * services_time_scale()));
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    $r = curl_exec($ch);
    $slowDone = true;
    return $r;
});
$during = true;
foreach ($names as $name) {
    $inCoroutine = Async\await(Async\spawn('run_case', $name));
    $during = $during && !$slowDone;
    echo "$name: ", $inCoroutine === $plain[$name] ? "same as PHP's" : "DIFFERENT\n  plain:     {$plain[$name]}\n  coroutine: $inCoroutine", "\n";
}
echo "slow transfer: ", preg_replace('/[\d.]+/', 'N', trim(Async\await($slow))), ", the others ran meanwhile: ", $during ? "yes" : "no", "\n";
echo $plain['body'], "\n", $plain['empty body'], "\n", $plain['fail on error'], "\n", $plain['files'], "\n";
?>
--EXPECTF--
body: same as PHP's
empty body: same as PHP's
status 404: same as PHP's
fail on error: same as PHP's
to stdout: same as PHP's
files: same as PHP's
refused: same as PHP's
post: same as PHP's
slow transfer: slept N, the others ran meanwhile: yes
'hello\n', errno 0, error empty, code 200, printed ''
'', errno 0, error empty, code 200, printed ''
false, errno 22, error The requested URL returned error: 404, code 404, printed ''
true, errno 0, error empty, code 200, printed '', out written, head written, err written
