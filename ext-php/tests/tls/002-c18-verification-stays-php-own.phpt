--TEST--
Rule C18: inside coroutines PHP's certificate checks stay as they are: an untrusted and a wrong-name certificate are refused with PHP's warnings while a trusted request in another coroutine goes on; the trusted one is accepted
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('https'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$ctx = stream_context_create(['ssl' => ['cafile' => services_ca_file()]]);
$done = [];
$coroutines = [
    // Started first, it waits 0.3 s in the server: the refusals end before it.
    Async\spawn(function () use ($ctx, &$done) {
        $r = file_get_contents(services_url('https', '/delay?s=0.3'), false, $ctx);
        $done[] = "trusted: " . trim($r);
    }),
    Async\spawn(function () use ($ctx, &$done) {
        $r = file_get_contents(services_url('https-wrong-name', '/hello'), false, $ctx);
        $done[] = "wrong name: " . var_export($r, true);
        $r = file_get_contents(services_url('https-untrusted', '/hello'), false, $ctx);
        $done[] = "untrusted: " . var_export($r, true);
        // SNI and peer_name: the trusted server's certificate names
        // localhost, the wrong-name server's does not.
        $url = parse_url(services_url('https-wrong-name', '/'));
        $named = stream_context_create(['ssl' => ['cafile' => services_ca_file(), 'peer_name' => 'localhost']]);
        $s = stream_socket_client("tls://127.0.0.1:{$url['port']}", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $named);
        $done[] = "peer_name localhost on the wrong-name server: " . var_export($s, true);
    }),
];
Async\await_all($coroutines);
// Sorted: under valgrind the refusals may end after the trusted request.
sort($done);
echo implode("\n", $done), "\n";
?>
--EXPECTF--
Warning: file_get_contents(): Peer certificate subjectAltName did not match expected name `127.0.0.1' in %s on line %d

Warning: file_get_contents(): Failed to enable crypto in %s on line %d

Warning: file_get_contents(https://127.0.0.1:%d/hello): Failed to open stream: operation failed in %s on line %d

Warning: file_get_contents(): SSL operation failed with code 1. OpenSSL Error messages:
error:0A000086:SSL routines::certificate verify failed in %s on line %d

Warning: file_get_contents(): Failed to enable crypto in %s on line %d

Warning: file_get_contents(https://localhost:%d/hello): Failed to open stream: operation failed in %s on line %d

Warning: stream_socket_client(): Peer certificate subjectAltName did not match expected name `localhost' in %s on line %d

Warning: stream_socket_client(): Failed to enable crypto in %s on line %d

Warning: stream_socket_client(): Unable to connect to tls://127.0.0.1:%d (Unknown error) in %s on line %d
peer_name localhost on the wrong-name server: false
trusted: slept 0.3
untrusted: false
wrong name: false
