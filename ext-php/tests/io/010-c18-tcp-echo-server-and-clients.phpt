--TEST--
Rule C18: a TCP echo server coroutine and several client coroutines in one script, on 127.0.0.1 port 0
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
$address = stream_socket_get_name($server, false);
$log = [];

$acceptor = spawn(function () use ($server, &$log) {
    $handlers = [];
    for ($i = 0; $i < 3; $i++) {
        $conn = stream_socket_accept($server);
        $handlers[] = spawn(function () use ($conn, &$log) {
            $lines = 0;
            while (($line = fgets($conn)) !== false) {
                fwrite($conn, strtoupper($line));
                $lines++;
            }
            $log[] = "handler saw EOF after $lines lines";
            fclose($conn);
        });
    }
    foreach ($handlers as $h) await($h);
});

$clients = [];
foreach (['a', 'b', 'c'] as $name) {
    $clients[$name] = spawn(function () use ($address, $name) {
        $c = stream_socket_client("tcp://$address", $errno, $errstr, 5);
        $replies = [];
        foreach ([1, 2] as $n) {
            fwrite($c, "hello $n from $name\n");
            $replies[] = trim(fgets($c));
        }
        fclose($c);
        return implode(", ", $replies);
    });
}
foreach ($clients as $name => $c) {
    echo "$name: ", await($c), "\n";
}
await($acceptor);
sort($log);
echo implode("\n", $log), "\n";
?>
--EXPECT--
a: HELLO 1 FROM A, HELLO 2 FROM A
b: HELLO 1 FROM B, HELLO 2 FROM B
c: HELLO 1 FROM C, HELLO 2 FROM C
handler saw EOF after 2 lines
handler saw EOF after 2 lines
handler saw EOF after 2 lines
