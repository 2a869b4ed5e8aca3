--TEST--
Rule C18: ten dns_get_record/checkdnsrr/getmxrr calls in ten coroutines against a server that answers after 300 ms overlap on the thread pool (well under the 3 s they take one after the other) and the scheduler never stalls; a cancelled call keeps the answer of a query already on the pool, fails as a failed query does before starting another, and the cancellation is thrown at the next suspension
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

$scale = getenv('USE_ZEND_ALLOC') === '0' ? 40.0 : 1.0;
$done = false;
$maxStall = 0.0;
$ticker = spawn(function () use (&$done, &$maxStall) {
    $last = hrtime(true);
    while (!$done) {
        Async\delay(5);
        $now = hrtime(true);
        $maxStall = max($maxStall, ($now - $last) / 1e6 - 5);
        $last = $now;
    }
});

$start = hrtime(true);
$queries = [];
for ($i = 0; $i < 10; $i++) {
    $queries[] = spawn(function () use ($i) {
        switch ($i % 3) {
            case 0: return dns_get_record('slow.test', DNS_A)[0]['ip'] ?? 'none';
            case 1: return checkdnsrr('slow.test', 'A') ? 'found' : 'not found';
            default: return getmxrr('slow.test', $hosts) ? 'mx' : 'no mx';
        }
    });
}
$results = array_map(fn($c) => await($c), $queries);
$ms = (hrtime(true) - $start) / 1e6;
echo implode(' ', $results), "\n";
// One after the other: 10 x 300 ms. On the pool (4 threads): about 900 ms.
echo "overlapped: ", $ms >= 290 && $ms < 2000 * $scale ? "yes" : "no ($ms ms)", "\n";

// Cancelled while a query waits for its answer: the query on the pool runs
// to its end and its answer is kept (as gethostbyname's); a query not
// started yet is not started and the call fails as a failed query does
// (dns_get_record(DNS_A | DNS_MX): the MX query). Either way the
// cancellation is thrown at the next suspension.
foreach (['dns_get_record' => fn() => dns_get_record('slow.test', DNS_A | DNS_MX),
          'checkdnsrr' => fn() => checkdnsrr('slow.test', 'A'),
          'getmxrr' => fn() => getmxrr('slow.test', $hosts)] as $name => $call) {
    $victim = spawn(function () use ($name, $call) {
        $start = hrtime(true);
        $r = $call();
        $ms = (hrtime(true) - $start) / 1e6;
        // checkdnsrr: true when its query was on the pool already (nearly
        // always), false when a slow machine had not started it in 50 ms.
        echo "cancelled $name returned ", $name === 'checkdnsrr' && is_bool($r) ? 'a bool' : var_export($r, true),
            " after one query: ",
            $ms < 550 * $GLOBALS['scale'] ? "yes" : "no ($ms ms)", "\n";
        try {
            Async\delay(1);
            echo "not thrown\n";
        } catch (Async\CancellationError $e) {
            echo "then thrown: ", get_class($e), "\n";
        }
    });
    spawn(function () use ($victim) {
        Async\delay(50);
        $victim->cancel();
    });
    try {
        await($victim);
    } catch (Async\CancellationError $e) {
    }
}

$done = true;
await($ticker);
echo "the scheduler never stalled: ", $maxStall < 150 * $scale ? "yes" : "no ($maxStall ms)", "\n";
PHP;

$dns = dns_responder_start();
try {
    echo dns_child($dns, $code, true);
} finally {
    dns_responder_stop($dns);
}
?>
--EXPECTF--
10.0.0.1 found no mx 10.0.0.1 found no mx 10.0.0.1 found no mx 10.0.0.1
overlapped: yes

Warning: dns_get_record(): DNS Query failed in %s on line %d
cancelled dns_get_record returned false after one query: yes
then thrown: Async\CancellationError
cancelled checkdnsrr returned a bool after one query: yes
then thrown: Async\CancellationError
cancelled getmxrr returned false after one query: yes
then thrown: Async\CancellationError
the scheduler never stalled: yes
