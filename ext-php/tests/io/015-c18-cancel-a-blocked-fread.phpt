--TEST--
Rule C18: cancelling a coroutine blocked in fread() makes fread() return false; the next suspension throws the CancellationError
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
// The stream is intact: data sent later is read normally.
fwrite($b, "still works");
var_dump(await(spawn(fn() => fread($a, 100))));
?>
--EXPECT--
fread returned bool(false)
suspend throws Async\CancellationError
await: cancelled
string(11) "still works"
