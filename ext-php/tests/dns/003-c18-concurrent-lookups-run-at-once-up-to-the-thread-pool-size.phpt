--TEST--
Rule C18: ten concurrent gethostbyname calls against a resolver that holds every answer for 1.5 s are all in flight at once by default on every backend (the core's pool grows on demand), and never more than async.thread_pool_size allows
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

// A ticker runs meanwhile.
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        Async\delay(5);
        $ticks++;
    }
});
$lookups = [];
for ($i = 0; $i < 10; $i++) {
    $lookups[] = spawn(fn() => gethostbyname('hold.test'));
}
$ips = array_count_values(array_map(fn($c) => await($c), $lookups));
$done = true;
await($ticker);
echo json_encode($ips), ", the scheduler ran meanwhile: ", $ticks > 10 ? "yes" : "no ($ticks)", "\n";
// What the server saw: how many queries it held at once.
echo "at once: ", dns_get_record('peak.test', DNS_TXT)[0]['txt'] ?? 'none', "\n";
PHP;

$dns = dns_responder_start();
try {
    echo "default pool\n", dns_child($dns, $code, true);
    echo "sixteen threads\n", dns_child($dns, $code, true, ['async.thread_pool_size' => '16']);
    echo "three threads\n", dns_child($dns, $code, true, ['async.thread_pool_size' => '3']);
} finally {
    dns_responder_stop($dns);
}
?>
--EXPECT--
default pool
{"10.0.0.2":10}, the scheduler ran meanwhile: yes
at once: 10
sixteen threads
{"10.0.0.2":10}, the scheduler ran meanwhile: yes
at once: 10
three threads
{"10.0.0.2":10}, the scheduler ran meanwhile: yes
at once: 3
