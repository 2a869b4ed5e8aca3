--TEST--
Rule C24: a coroutine whose cancellation is pending (it let a cancelled fread() fail, C18) and that then fclose()s a socket another coroutine reads still completes the close once the reader left (the stream is neither freed under the reader nor left half-closed); the cancellation is thrown at its next suspension
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
[$c, $d] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    $r = fread($a, 10);
    echo "blocked fread returned "; var_dump($r);
});
$closer = spawn(function () use ($a, $c) {
    echo "cancelled fread returned "; var_dump(fread($c, 10));
    echo "closing\n";
    var_dump(fclose($a));
    echo "closed\n";
    try {
        Async\delay(1000);
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "the next suspension throws ", get_class($e), "\n";
        throw $e;
    }
});
spawn(function () use ($closer) {
    $closer->cancel();
});
await($reader);
try {
    await($closer);
} catch (Async\CancellationError $e) {
    echo "closer cancelled\n";
}
try {
    fread($a, 1);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
cancelled fread returned bool(false)
closing
blocked fread returned bool(false)
bool(true)
closed
the next suspension throws Async\CancellationError
closer cancelled
fread(): supplied resource is not a valid stream resource
