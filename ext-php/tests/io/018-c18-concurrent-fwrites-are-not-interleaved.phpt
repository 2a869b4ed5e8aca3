--TEST--
Rule C18: two coroutines writing large buffers to one socket: each fwrite() goes out whole, as in blocking PHP
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$size = 1 << 20;
$w1 = spawn(function () use ($a, $size) { $n = fwrite($a, str_repeat("A", $size)); echo "writer 1 wrote $n\n"; });
$w2 = spawn(function () use ($a, $size) { $n = fwrite($a, str_repeat("B", $size)); echo "writer 2 wrote $n\n"; });
$reader = spawn(function () use ($b, $size) {
    $data = '';
    while (strlen($data) < 2 * $size && ($chunk = fread($b, 65536)) !== false && $chunk !== '') {
        $data .= $chunk;
    }
    preg_match_all('/A+|B+/', $data, $runs);
    echo "reader got ", strlen($data), " bytes in ", count($runs[0]), " runs\n";
});
await($w1);
await($w2);
await($reader);
?>
--EXPECT--
writer 1 wrote 1048576
writer 2 wrote 1048576
reader got 2097152 bytes in 2 runs
