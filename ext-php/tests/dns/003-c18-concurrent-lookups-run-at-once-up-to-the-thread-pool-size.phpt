--TEST--
Rule C18: ten concurrent gethostbyname calls against a resolver that holds every answer for 1.5 s are all in flight at once (the pool grows on demand), and async.thread_pool_size (on uv, libuv's UV_THREADPOOL_SIZE) bounds how many
--SKIPIF--
<?php
require __DIR__ . '/dns.inc';
if ($reason = dns_skip_reason()) die("skip $reason");
?>
--FILE--
<?php
require __DIR__ . '/dns.inc';

$code = <<<'PHP'
<?php
use function Async\spawn;
use function Async\await;

$lookups = [];
for ($i = 0; $i < 10; $i++) {
    $lookups[] = spawn(fn() => gethostbyname('hold.test'));
}
$ips = array_count_values(array_map(fn($c) => await($c), $lookups));
echo json_encode($ips), "\n";
// What the server saw: how many queries it held at once.
echo "at once: ", dns_get_record('peak.test', DNS_TXT)[0]['txt'] ?? 'none', "\n";
PHP;

$dns = dns_responder_start();
try {
    // uv: the lookups run on libuv's pool, whose size is libuv's own setting.
    echo "default pool\n", dns_child($dns, $code, true, [], ['UV_THREADPOOL_SIZE' => '16']);
    echo "three threads\n", dns_child($dns, $code, true, ['async.thread_pool_size' => '3'], ['UV_THREADPOOL_SIZE' => '3']);
} finally {
    dns_responder_stop($dns);
}
?>
--EXPECT--
default pool
{"10.0.0.2":10}
at once: 10
three threads
{"10.0.0.2":10}
at once: 3
