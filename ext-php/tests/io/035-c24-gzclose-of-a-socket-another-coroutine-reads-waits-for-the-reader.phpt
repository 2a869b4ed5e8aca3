--TEST--
Rule C24: gzclose() (fclose() under another name) of a socket another coroutine is blocked reading wakes the reader (its fread() fails) and returns once it left, so that the reader never touches the freed stream
--EXTENSIONS--
zlib
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    $r = fread($a, 10);
    echo "blocked fread returned "; var_dump($r);
    echo "reader done\n";
});
$closer = spawn(function () use ($a) {
    echo "closing\n";
    var_dump(gzclose($a));
    echo "closed\n";
});
await($reader);
await($closer);
try {
    fread($a, 1);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
closing
blocked fread returned bool(false)
reader done
bool(true)
closed
fread(): supplied resource is not a valid stream resource
