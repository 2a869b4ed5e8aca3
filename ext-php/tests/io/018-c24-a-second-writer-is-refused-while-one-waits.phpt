--TEST--
Rule C24: while a coroutine waits in the middle of an fwrite() of a large buffer, another coroutine's fwrite() to the same stream fails with a warning naming both; the first write goes out whole
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$size = 1 << 20;
$w1 = spawn(function () use ($a, $size) { $n = fwrite($a, str_repeat("A", $size)); echo "writer 1 wrote $n\n"; });
$w2 = spawn(function () use ($a, $size) { $n = fwrite($a, str_repeat("B", $size)); echo "writer 2: "; var_dump($n); });
$reader = spawn(function () use ($b, $size) {
    $data = '';
    while (strlen($data) < $size && ($chunk = fread($b, 65536)) !== false && $chunk !== '') {
        $data .= $chunk;
    }
    preg_match_all('/A+|B+/', $data, $runs);
    echo "reader got ", strlen($data), " bytes in ", count($runs[0]), " run(s)\n";
});
await($w1);
await($w2);
await($reader);
printf("ids: %d %d\n", $w1->getId(), $w2->getId());
// Once the first writer is done, the stream takes writes from anyone.
var_dump(await(spawn(fn() => fwrite($a, "next"))), fread($b, 10));
?>
--EXPECTF--
Warning: fwrite(): Coroutine #%d cannot write to this stream: coroutine #%d is writing to it in %s on line %d
writer 2: bool(false)
writer 1 wrote 1048576
reader got 1048576 bytes in 1 run(s)
ids: %d %d
int(4)
string(4) "next"
