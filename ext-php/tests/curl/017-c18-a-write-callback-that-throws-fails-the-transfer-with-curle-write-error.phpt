--TEST--
C18: an exception thrown from a write (or header) callback during curl_exec() leaves the call and curl_errno() at CURLE_WRITE_ERROR; one from a progress callback at CURLE_ABORTED_BY_CALLBACK; the handle is reusable
--EXTENSIONS--
curl
--FILE--
<?php
$server = stream_socket_server('tcp://127.0.0.1:0');
$base = 'http://' . stream_socket_get_name($server, false);
Async\spawn(function () use ($server) {
    while ($conn = @stream_socket_accept($server, 5)) {
        Async\spawn(function () use ($conn) {
            while (($line = fgets($conn)) !== false && $line !== "\r\n") {
            }
            fwrite($conn, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\nhello");
            Async\delay(20);
            fwrite($conn, "world");
            fclose($conn);
        });
    }
});
$cases = [
    'write' => [CURLOPT_WRITEFUNCTION, function ($ch, $data) { throw new RuntimeException("in the write callback"); }],
    'header' => [CURLOPT_HEADERFUNCTION, function ($ch, $line) { throw new RuntimeException("in the header callback"); }],
    'progress' => [CURLOPT_XFERINFOFUNCTION, function ($ch, $dt, $dn, $ut, $un) { if ($dn > 0) throw new RuntimeException("in the progress callback"); return 0; }],
];
foreach ($cases as $name => [$option, $callback]) {
    $ch = curl_init("$base/");
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    curl_setopt($ch, CURLOPT_NOPROGRESS, $name !== 'progress');
    curl_setopt($ch, $option, $callback);
    try {
        curl_exec($ch);
    } catch (RuntimeException $e) {
        echo "$name: ", $e->getMessage(), ", curl_errno ", curl_errno($ch), "\n";
    }
    var_dump(curl_errno($ch) === ($name === 'progress' ? CURLE_ABORTED_BY_CALLBACK : CURLE_WRITE_ERROR));
}
$ch = curl_init("$base/");
curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
echo "a fresh transfer: ", curl_exec($ch), ", curl_errno ", curl_errno($ch), "\n";
fclose($server);
?>
--EXPECT--
write: in the write callback, curl_errno 23
bool(true)
header: in the header callback, curl_errno 23
bool(true)
progress: in the progress callback, curl_errno 42
bool(true)
a fresh transfer: helloworld, curl_errno 0
