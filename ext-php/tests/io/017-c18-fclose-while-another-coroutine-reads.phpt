--TEST--
Rule C18: fclose() of a stream another coroutine is blocked on wakes that reader (its fread() fails) and returns once it left
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    $r = fread($a, 10);
    echo "blocked fread returned "; var_dump($r);
});
$closer = spawn(function () use ($a) {
    echo "closing\n";
    var_dump(fclose($a));
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
bool(true)
closed
fread(): supplied resource is not a valid stream resource
