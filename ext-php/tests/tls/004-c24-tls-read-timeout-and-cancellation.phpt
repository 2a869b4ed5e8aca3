--TEST--
Rules C18 and C24: a TLS read honours stream_set_timeout() while others run; a TLS read cancelled midway fails and leaves the stream failed (the next read sees EOF, the peer sees the connection closed); the cancellation is thrown next
--EXTENSIONS--
openssl
--INI--
default_socket_timeout=5
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
$cert = openssl_csr_sign(openssl_csr_new(['commonName' => 'tasync.test'], $key, ['digest_alg' => 'sha256']), null, $key, 1, ['digest_alg' => 'sha256']);
$pem = tempnam(sys_get_temp_dir(), 'tasync-tls');
openssl_x509_export($cert, $certPem);
openssl_pkey_export($key, $keyPem);
file_put_contents($pem, $certPem . $keyPem);
$server = stream_socket_server('ssl://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['ssl' => ['local_cert' => $pem]]));
$address = stream_socket_get_name($server, false);
$clientCtx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'tasync.test']]);

// The server sends nothing until the client's connection ends.
$serving = spawn(function () use ($server) {
    $c = stream_socket_accept($server);
    $got = fgets($c);
    return "server read " . var_export($got, true) . ", eof " . var_export(feof($c), true);
});
$s = stream_socket_client("tls://$address", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $clientCtx);

$ticks = 0;
$ticking = spawn(function () use (&$ticks) { while (true) { Async\delay(10); $ticks++; } });

// stream_set_timeout(): false (PHP's TLS read) and timed_out after 0.3 s, the ticker running.
stream_set_timeout($s, 0, 300000);
$start = hrtime(true);
$r = fread($s, 100);
$elapsed = (hrtime(true) - $start) / 1e9;
echo "timed-out read: ", var_export($r, true), ", timed_out ", var_export(stream_get_meta_data($s)['timed_out'], true),
    ", after ", $elapsed >= 0.25 ? ">= 0.25 s" : "$elapsed s", ", ticks ", $ticks >= 5 ? "yes" : "no ($ticks)", "\n";

// A read cancelled midway.
stream_set_timeout($s, 5);
$reader = spawn(function () use ($s) {
    $r = fread($s, 100);
    echo "cancelled read: ", var_export($r, true), "\n";
    Async\suspend();
});
spawn(function () use ($reader) { Async\delay(50); $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo "then: ", get_class($e), "\n";
}
echo "next read: ", var_export(fread($s, 100), true), ", eof ", var_export(feof($s), true), "\n";
echo await($serving), "\n";
$ticking->cancel();
fclose($s);
unlink($pem);
?>
--EXPECT--
timed-out read: false, timed_out true, after >= 0.25 s, ticks yes
cancelled read: false
then: Async\CancellationError
next read: '', eof true
server read false, eof true
