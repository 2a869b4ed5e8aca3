--TEST--
Rules C18 and C24: cancelling a coroutine blocked in fread() makes fread() return false and leaves the stream failed, as after a connection reset; the next suspension throws the CancellationError
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    $r = fread($a, 10);
    echo "fread returned "; var_dump($r);
    try {
        Async\suspend();
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "suspend throws ", get_class($e), "\n";
        throw $e;
    }
});
spawn(function () use ($reader) { $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
// C24: the stream is failed, so that no later read can take the reply the
// cancelled one waited for: the peer sees the connection closed, and the
// stream reads nothing but EOF (data the peer sent is gone).
var_dump(fread($b, 100), feof($b));
var_dump(await(spawn(fn() => fread($a, 100))), feof($a));
?>
--EXPECT--
fread returned bool(false)
suspend throws Async\CancellationError
await: cancelled
string(0) ""
bool(true)
string(0) ""
bool(true)
