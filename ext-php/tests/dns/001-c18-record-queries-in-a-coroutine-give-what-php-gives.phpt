--TEST--
Rule C18: dns_get_record (every record type PHP knows, DNS_ALL, DNS_ANY, the authority and additional sections, raw mode), checkdnsrr/dns_check_record and getmxrr/dns_get_mx inside a coroutine return exactly what PHP's own functions return against the same server, with the same warnings and errors
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
function call(callable $f): array {
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    try {
        $result = $f();
    } catch (Throwable $e) {
        $result = get_class($e) . ': ' . $e->getMessage();
    }
    restore_error_handler();
    return [$result, $warnings];
}
function calls(): array {
    $out = [];
    $types = ['A' => DNS_A, 'NS' => DNS_NS, 'CNAME' => DNS_CNAME, 'SOA' => DNS_SOA, 'PTR' => DNS_PTR,
        'HINFO' => DNS_HINFO, 'CAA' => DNS_CAA, 'MX' => DNS_MX, 'TXT' => DNS_TXT, 'A6' => DNS_A6,
        'SRV' => DNS_SRV, 'NAPTR' => DNS_NAPTR, 'AAAA' => DNS_AAAA, 'ALL' => DNS_ALL, 'ANY' => DNS_ANY,
        'A|MX|TXT' => DNS_A | DNS_MX | DNS_TXT];
    foreach ($types as $name => $type) {
        $out["get $name"] = call(fn() => dns_get_record('rec.test', $type));
    }
    $out['default type'] = call(fn() => dns_get_record('rec.test'));
    $out['ANY, authns, addtl'] = call(function () {
        $r = dns_get_record('rec.test', DNS_ANY, $authns, $addtl);
        return [$r, $authns, $addtl];
    });
    $out['A|MX, authns, addtl'] = call(function () {
        $authns = 'replaced';
        $r = dns_get_record('rec.test', DNS_A | DNS_MX, $authns, $addtl);
        return [$r, $authns, $addtl];
    });
    $out['MX, authns only'] = call(function () {
        $r = dns_get_record('rec.test', DNS_MX, $authns);
        return [$r, $authns];
    });
    $out['raw TXT'] = call(fn() => dns_get_record('rec.test', 16, $a, $b, true));
    $out['raw SPF'] = call(fn() => dns_get_record('rec.test', 99, raw: true));
    $out['raw ANY'] = call(function () {
        $r = dns_get_record('rec.test', 255, $authns, $addtl, true);
        return [$r, $authns, $addtl];
    });
    $out['get NXDOMAIN'] = call(fn() => dns_get_record('nx.test', DNS_A));
    $out['get SERVFAIL'] = call(fn() => dns_get_record('fail.test', DNS_A));
    $out['get SERVFAIL, authns'] = call(function () {
        $r = dns_get_record('fail.test', DNS_A, $authns, $addtl);
        return [$r, $authns, $addtl];
    });
    $out['get bad type'] = call(fn() => dns_get_record('rec.test', 12345));
    $out['get raw bad type'] = call(fn() => dns_get_record('rec.test', 0, raw: true));
    $out['get NUL'] = call(fn() => dns_get_record("rec.test\0x", DNS_A));
    foreach (['MX', 'A', 'a', 'NS', 'PTR', 'ANY', 'SOA', 'CAA', 'TXT', 'CNAME', 'AAAA', 'SRV', 'NAPTR', 'A6'] as $t) {
        $out["check $t"] = call(fn() => checkdnsrr('rec.test', $t));
    }
    $out['check default'] = call(fn() => checkdnsrr('rec.test'));
    $out['check alias'] = call(fn() => dns_check_record('rec.test', 'SRV'));
    $out['check NXDOMAIN'] = call(fn() => checkdnsrr('nx.test', 'A'));
    $out['check SERVFAIL'] = call(fn() => checkdnsrr('fail.test', 'A'));
    $out['check empty'] = call(fn() => checkdnsrr('', 'A'));
    $out['check bad type'] = call(fn() => checkdnsrr('rec.test', 'BOGUS'));
    $out['mx'] = call(function () {
        $r = getmxrr('rec.test', $hosts, $weights);
        return [$r, $hosts, $weights];
    });
    $out['mx alias, no weights'] = call(function () {
        $hosts = ['old'];
        $r = dns_get_mx('rec.test', $hosts);
        return [$r, $hosts];
    });
    $out['mx NXDOMAIN'] = call(function () {
        $r = getmxrr('nx.test', $hosts, $weights);
        return [$r, $hosts, $weights];
    });
    $out['mx SERVFAIL'] = call(function () {
        $r = getmxrr('fail.test', $hosts);
        return [$r, $hosts];
    });
    $out['mx of a name without MX'] = call(function () {
        $r = getmxrr('slow.test', $hosts);
        return [$r, $hosts];
    });
    return $out;
}
$ticks = 0;
if (extension_loaded('async')) {
    // A coroutine that ticks only while the queries let it run.
    $done = false;
    $ticker = Async\spawn(function () use (&$ticks, &$done) {
        while (!$done) {
            Async\delay(1);
            if (!$done) {
                $ticks++;
            }
        }
    });
    $out = Async\await(Async\spawn(function () use (&$done) {
        try {
            return calls();
        } finally {
            $done = true;
        }
    }));
    Async\await($ticker);
} else {
    $out = calls();
}
echo serialize([$out, $ticks]), "\n";
PHP;

$dns = dns_responder_start();
try {
    $plain = dns_child($dns, $code, false);
    $async = dns_child($dns, $code, true);
} finally {
    dns_responder_stop($dns);
}
$p = @unserialize(trim($plain));
$a = @unserialize(trim($async));
if (!is_array($p) || !is_array($a)) {
    echo "plain PHP:\n", json_encode($plain, JSON_INVALID_UTF8_SUBSTITUTE), "\nwith async:\n",
        json_encode($async, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
    exit;
}
[$p, $a, $ticks] = [$p[0], $a[0], $a[1]];
echo "other coroutines ran during the queries: ", $ticks > 0 ? "yes" : "no", "\n";
$same = 0;
foreach ($p as $what => $result) {
    if ($a[$what] === $result) {
        $same++;
    } else {
        $show = fn($v) => json_encode($v, JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRETTY_PRINT);
        echo "$what differs:\n", $show($result), "\nin a coroutine:\n", $show($a[$what] ?? null), "\n";
    }
}
echo "$same of ", count($p), " calls give what PHP gives\n";
// What the server serves was seen (the comparison is not of two empty sets).
echo "ANY: ", count($p['get ANY'][0]), " records; ALL: ", count($p['get ALL'][0]), "\n";
echo "types: ", implode(',', array_unique(array_column($p['get ALL'][0], 'type'))), "\n";
echo "authns: ", count($p['ANY, authns, addtl'][0][1]), ", addtl: ", count($p['ANY, authns, addtl'][0][2]), "\n";
echo "SERVFAIL: ", implode('; ', $p['get SERVFAIL'][1]), "\n";
echo "mx: ", implode(',', $p['mx'][0][1]), " weights ", implode(',', $p['mx'][0][2]), "\n";
?>
--EXPECT--
other coroutines ran during the queries: yes
54 of 54 calls give what PHP gives
ANY: 23 records; ALL: 23
types: A,NS,CNAME,SOA,PTR,HINFO,MX,TXT,AAAA,SRV,NAPTR,A6,CAA
authns: 1, addtl: 1
SERVFAIL: dns_get_record(): A temporary server error occurred.
mx: mx1.test,mx2.test weights 10,20
