--TEST--
Rule C18: file_get_contents('http://...') in a coroutine goes through the hooked tcp transport; the server is a coroutine of the same script
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
$address = stream_socket_get_name($server, false);
$httpd = spawn(function () use ($server) {
    for ($i = 1; $i <= 2; $i++) {
        $conn = stream_socket_accept($server, 5);
        $request = '';
        while (($line = fgets($conn)) !== false && $line !== "\r\n") $request .= $line;
        [, $path] = explode(' ', strtok($request, "\r\n"));
        $body = "response $i for $path";
        fwrite($conn, "HTTP/1.0 200 OK\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
        fclose($conn);
    }
});
$ctx = stream_context_create(['http' => ['timeout' => 5]]);
echo await(spawn(fn() => file_get_contents("http://$address/first", false, $ctx))), "\n";
echo await(spawn(fn() => file_get_contents("http://$address/second", false, $ctx))), "\n";
await($httpd);
?>
--EXPECT--
response 1 for /first
response 2 for /second
