--TEST--
Rule C18: a coroutine suspended in fread($stream, 65536) on a TCP connection holds no 64 KiB string meanwhile (100 idle readers cost far less than 100 buffers) and still returns what arrives
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

$server = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
$addr = stream_socket_get_name($server, false);
$clients = $conns = $readers = [];
$waiting = 0;
for ($i = 0; $i < 100; $i++) {
    $clients[$i] = stream_socket_client("tcp://$addr");
    $conns[$i] = stream_socket_accept($server);
    fwrite($clients[$i], "first $i");
}
$before = memory_get_usage();
foreach ($conns as $conn) {
    $readers[] = spawn(function () use ($conn, &$waiting) {
        $first = fread($conn, 65536); // what is there: a short read
        $waiting++;
        $second = fread($conn, 65536); // the queue is empty: suspends
        return [$first, $second];
    });
}
delay(20); // every reader runs to its second fread() and suspends there
var_dump($waiting);
$held = memory_get_usage() - $before;
// 100 strings of 64 KiB would be 6.4 MiB; each stream keeps PHP's own
// 8 KiB read buffer.
echo $held < 3 * 1024 * 1024 ? "held less than 3 MiB\n" : "held $held bytes\n";
foreach ($clients as $i => $c) {
    fwrite($c, "second $i");
}
$ok = 0;
foreach ($readers as $i => $r) {
    $ok += await($r) === ["first $i", "second $i"] ? 1 : 0;
}
var_dump($ok);
?>
--EXPECT--
int(100)
held less than 3 MiB
int(100)
