--TEST--
Rule C18: stream_select() over many sockets, read and write arrays together
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$pairs = [];
for ($i = 0; $i < 5; $i++) $pairs[] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$readers = array_map(fn($p) => $p[0], $pairs);
$selector = spawn(function () use ($readers, $pairs) {
    $got = [];
    while (count($got) < 3) {
        $read = $readers;
        $write = null; $except = null;
        stream_select($read, $write, $except, 5);
        foreach ($read as $k => $s) {
            $got[] = "$k:" . fread($s, 100);
            unset($readers[$k]);
        }
    }
    echo implode(" ", $got), "\n";
    $read = []; $write = [$pairs[0][0]]; $except = null;
    var_dump(stream_select($read, $write, $except, 1), count($write));
});
foreach ([3, 1, 4] as $i) {
    fwrite($pairs[$i][1], "msg$i");
    Async\delay(30);
}
await($selector);
?>
--EXPECT--
3:msg3 1:msg1 4:msg4
int(1)
int(1)
