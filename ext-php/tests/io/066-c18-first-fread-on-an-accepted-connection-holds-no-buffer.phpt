--TEST--
Rule C18: a coroutine whose first fread($conn, 65536) on an accepted connection waits for the client's first bytes holds no 64 KiB string meanwhile (100 new connections cost far less than 100 buffers) and still returns what arrives
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

$server = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
$addr = stream_socket_get_name($server, false);
$clients = $conns = $readers = [];
$started = 0;
for ($i = 0; $i < 100; $i++) {
    $clients[$i] = stream_socket_client("tcp://$addr");
    $conns[$i] = stream_socket_accept($server);
}
$before = memory_get_usage();
foreach ($conns as $conn) {
    $readers[] = spawn(function () use ($conn, &$started) {
        $started++;
        return fread($conn, 65536); // nothing sent yet: suspends
    });
}
delay(20); // every reader runs to its fread() and suspends there
var_dump($started);
$held = memory_get_usage() - $before;
// 100 strings of 64 KiB would be 6.4 MiB; each stream keeps PHP's own
// 8 KiB read buffer once it has read.
echo $held < 3 * 1024 * 1024 ? "held less than 3 MiB\n" : "held $held bytes\n";
foreach ($clients as $i => $c) {
    fwrite($c, "first $i");
}
$ok = 0;
foreach ($readers as $i => $r) {
    $ok += await($r) === "first $i" ? 1 : 0;
}
var_dump($ok);
// A client that closes before it sends: the first fread() sees the end.
$c = stream_socket_client("tcp://$addr");
$conn = stream_socket_accept($server);
fclose($c);
var_dump(await(spawn(fn () => fread($conn, 65536))));
?>
--EXPECT--
int(100)
held less than 3 MiB
int(100)
string(0) ""
