--TEST--
C18: curl_exec() failures inside coroutines are libcurl's (refused connection, unknown host, certificate of the wrong name or from an untrusted issuer refused), reported while a slow transfer is still running
--INI--
pcre.jit=0
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http', 'https'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

function attempt(string $url, array $options = []): string
{
    $ch = curl_init($url);
    curl_setopt_array($ch, $options + [CURLOPT_RETURNTRANSFER => true, CURLOPT_CAINFO => services_ca_file()]);
    $r = curl_exec($ch);
    return sprintf("%s, curl_errno %d, curl_error %s", var_export($r, true), curl_errno($ch),
        curl_error($ch) !== '' ? 'set' : 'empty');
}

// A closed port: bind one, note it, close it.
$s = stream_socket_server('tcp://127.0.0.1:0');
$closed = stream_socket_get_name($s, false);
fclose($s);

$results = [];
$slowDone = false;
$beforeSlow = [];
$slow = Async\spawn(function () use (&$slowDone) {
    $r = attempt(services_url('http', '/delay?s=' . 0.5 * services_time_scale()));
    $slowDone = true;
    return $r;
});
$cases = [
    'refused' => ["http://$closed/"],
    'unknown host' => ['http://no-such-host.invalid/'],
    'wrong name' => [services_url('https-wrong-name', '/hello')],
    'untrusted' => [services_url('https-untrusted', '/hello')],
    'untrusted, verification off' => [services_url('https-untrusted', '/hello'), [CURLOPT_SSL_VERIFYPEER => false, CURLOPT_SSL_VERIFYHOST => 0]],
    'wrong name, host check off' => [services_url('https-wrong-name', '/hello'), [CURLOPT_SSL_VERIFYHOST => 0]],
];
$coroutines = [];
foreach ($cases as $name => $args) {
    $coroutines[$name] = Async\spawn(function () use ($name, $args, &$results, &$beforeSlow, &$slowDone) {
        $results[$name] = attempt(...$args);
        $beforeSlow[$name] = !$slowDone;
    });
}
Async\await_all_or_fail($coroutines);
foreach ($cases as $name => $args) {
    echo "$name: {$results[$name]}\n";
}
echo "slow transfer: ", preg_replace('/slept [\d.]+/', 'slept N', Async\await($slow)), "\n";
echo "failures reported while it ran: ", implode(',', array_unique($beforeSlow)) === '1' ? 'yes' : 'no', "\n";
?>
--EXPECT--
refused: false, curl_errno 7, curl_error set
unknown host: false, curl_errno 6, curl_error set
wrong name: false, curl_errno 60, curl_error set
untrusted: false, curl_errno 60, curl_error set
untrusted, verification off: 'hello
', curl_errno 0, curl_error empty
wrong name, host check off: 'hello
', curl_errno 0, curl_error empty
slow transfer: 'slept N
', curl_errno 0, curl_error empty
failures reported while it ran: yes
