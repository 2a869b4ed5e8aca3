--TEST--
Rule C18: a plain tcp connection switched to TLS mid-stream (stream_socket_enable_crypto on the server and the client side) between two coroutines of one process, and an ssl:// server with tls:// clients; others run meanwhile
--EXTENSIONS--
openssl
--INI--
default_socket_timeout=5
--FLAKY--
The ticker's count depends on how often the scheduler gets the CPU; another process on a 2-CPU machine can starve it (one retry, as run-tests.php gives every timing test).
--FILE--
<?php
use function Async\spawn;
use function Async\await;

// A self-signed certificate for tasync.test, made here (EC: quick).
$key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
$csr = openssl_csr_new(['commonName' => 'tasync.test'], $key, ['digest_alg' => 'sha256']);
$cert = openssl_csr_sign($csr, null, $key, 1, ['digest_alg' => 'sha256']);
$pem = tempnam(sys_get_temp_dir(), 'tasync-tls');
openssl_x509_export($cert, $certPem);
openssl_pkey_export($key, $keyPem);
file_put_contents($pem, $certPem . $keyPem);
$serverCtx = stream_context_create(['ssl' => ['local_cert' => $pem]]);
$clientCtx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'tasync.test']]);

$ticks = 0;
$ticking = true;
$ticker = spawn(function () use (&$ticks, &$ticking) {
    while ($ticking) {
        Async\delay(1);
        $ticks++;
    }
});

// STARTTLS: a plain exchange, then both sides switch to TLS.
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $serverCtx);
$address = stream_socket_get_name($server, false);
$serving = spawn(function () use ($server) {
    $c = stream_socket_accept($server);
    $line = fgets($c);
    fwrite($c, "OK $line");
    $on = stream_socket_enable_crypto($c, true, STREAM_CRYPTO_METHOD_TLS_SERVER);
    $request = fgets($c);
    fwrite($c, strtoupper($request));
    fclose($c);
    return "server: " . trim($line) . ", crypto " . var_export($on, true) . ", got " . trim($request);
});
$client = spawn(function () use ($address, $clientCtx) {
    $s = stream_socket_client("tcp://$address", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $clientCtx);
    fwrite($s, "STARTTLS\n");
    $ok = trim(fgets($s));
    $on = stream_socket_enable_crypto($s, true, STREAM_CRYPTO_METHOD_TLS_CLIENT);
    fwrite($s, "hello over tls\n");
    $reply = trim(fgets($s));
    $meta = stream_get_meta_data($s);
    $tail = var_export(fgets($s), true);
    return "client: $ok, crypto " . var_export($on, true) . ", got $reply then $tail, "
        . (str_starts_with($meta['crypto']['protocol'], 'TLSv1.') ? 'TLS' : 'no TLS');
});
echo await($client), "\n", await($serving), "\n";

// ssl:// server, tls:// clients: the handshake at accept and at connect.
$server = stream_socket_server('ssl://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $serverCtx);
$address = stream_socket_get_name($server, false);
spawn(function () use ($server) {
    for ($i = 0; $i < 3; $i++) {
        $c = stream_socket_accept($server);
        spawn(function () use ($c) {
            fwrite($c, "echo: " . fgets($c));
            fclose($c);
        });
    }
});
$clients = [];
for ($i = 0; $i < 3; $i++) {
    $clients[] = spawn(function () use ($i, $address, $clientCtx) {
        $s = stream_socket_client("tls://$address", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $clientCtx);
        fwrite($s, "client $i\n");
        return trim(fgets($s));
    });
}
echo implode("\n", Async\await_all_or_fail($clients)), "\n";
$ticking = false;
await($ticker);
echo "the ticker ran meanwhile: ", $ticks > 3 ? "yes" : "no ($ticks)", "\n";
unlink($pem);
?>
--EXPECT--
client: OK STARTTLS, crypto true, got HELLO OVER TLS then false, TLS
server: STARTTLS, crypto true, got hello over tls
echo: client 0
echo: client 1
echo: client 2
the ticker ran meanwhile: yes
