--TEST--
Rule C18: stream_select in a coroutine over a mix of a socket, a pipe, a plain file and a TLS stream behaves as PHP's: the pipe's data wakes it while others run, a plain file is always ready, and data a TLS stream already decrypted counts as readable though its socket is empty
--EXTENSIONS--
openssl
--INI--
default_socket_timeout=5
--FLAKY--
The ticker's count depends on how often the scheduler gets the CPU; another process on a 2-CPU machine can starve it (one retry, as run-tests.php gives every timing test).
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$ticks = 0;
$ticking = true;
$ticker = spawn(function () use (&$ticks, &$ticking) {
    while ($ticking) {
        Async\delay(1);
        $ticks++;
    }
});
function select_in_coroutine(array $read): array
{
    return await(spawn(function () use ($read) {
        $w = $e = null;
        // Under valgrind the shell of the pipe is slow to start too.
        $n = stream_select($read, $w, $e, (int) (5 * services_time_scale()));
        return [$n, array_keys($read)];
    }));
}

[$idle, $idlePeer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$pipe = popen('sleep 0.1; echo from the pipe', 'r');
[$n, $keys] = select_in_coroutine(['socket' => $idle, 'pipe' => $pipe]);
echo "socket and pipe: $n ", implode(',', $keys), ": ", trim(fgets($pipe)), "\n";
pclose($pipe);
// Had stream_select blocked the process, the ticker could not have run more
// than once (after the select). Under valgrind on a busy machine it runs
// 20-50 times in the pipe's 100 ms, unhindered over 100.
echo "the ticker ran meanwhile: ", $ticks >= 3 ? "yes" : "no ($ticks)", "\n";

$file = fopen(__FILE__, 'r');
[$n, $keys] = select_in_coroutine(['socket' => $idle, 'file' => $file]);
echo "socket and file: $n ", implode(',', $keys), "\n";

// A TLS stream: one record holds both lines; after the first is read, the
// second is decrypted already and the socket is empty.
$key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
$csr = openssl_csr_new(['commonName' => 'tasync.test'], $key, ['digest_alg' => 'sha256']);
$cert = openssl_csr_sign($csr, null, $key, 1, ['digest_alg' => 'sha256']);
$pem = tempnam(sys_get_temp_dir(), 'tasync-tls');
openssl_x509_export($cert, $certPem);
openssl_pkey_export($key, $keyPem);
file_put_contents($pem, $certPem . $keyPem);
$server = stream_socket_server('tls://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['ssl' => ['local_cert' => $pem]]));
$address = stream_socket_get_name($server, false);
// A TLS handshake under valgrind takes seconds: scale the accept's timeout.
ini_set('default_socket_timeout', (string) (int) (5 * services_time_scale()));
$serving = spawn(function () use ($server) {
    $c = stream_socket_accept($server);
    fwrite($c, "first line\nsecond line\n");
    fgets($c); // until the client is done
});
$tls = stream_socket_client("tls://$address", $errno, $errstr, 5 * services_time_scale(), STREAM_CLIENT_CONNECT,
    stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'tasync.test']]));
echo "first: ", trim(fgets($tls)), "\n";
[$n, $keys] = select_in_coroutine(['socket' => $idle, 'tls' => $tls]);
echo "socket and tls: $n ", implode(',', $keys), ": ", trim(fgets($tls)), "\n";
fwrite($tls, "bye\n");
await($serving);
$ticking = false;
await($ticker);
unlink($pem);
?>
--EXPECT--
socket and pipe: 1 pipe: from the pipe
the ticker ran meanwhile: yes
socket and file: 1 file
first: first line
socket and tls: 1 tls: second line
