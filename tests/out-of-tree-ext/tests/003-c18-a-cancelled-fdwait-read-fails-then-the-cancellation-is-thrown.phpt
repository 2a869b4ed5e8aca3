--TEST--
Rule C18 from an extension built out of tree: a coroutine cancelled in fdwait_read() gets false and the function's warning (Operation canceled), the CancellationError at its next suspension, and the socket still works; a coroutine that ignores the failure gets the CancellationError from its next fdwait_read()
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    var_dump(fdwait_read($a, 100, 10.0));
    try {
        delay(1);
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "the next suspension throws ", get_class($e), "\n";
        throw $e;
    }
});
spawn(function () use ($reader) { delay(20); $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
// The cancelled call consumed nothing: what is sent next is read whole.
fwrite($b, "after the cancellation");
var_dump(await(spawn(fn() => fdwait_read($a, 100, 1.0))));

// Ignoring the failure: the cancellation is not lost, the next call throws.
$stubborn = spawn(function () use ($a) {
    $calls = 0;
    try {
        while (true) {
            $calls++;
            if (@fdwait_read($a, 100, 10.0) === false) {
                echo "call $calls failed\n";
            }
        }
    } finally {
        echo "left the loop in call $calls\n";
    }
});
spawn(function () use ($stubborn) { delay(20); $stubborn->cancel(); });
try {
    await($stubborn);
} catch (Async\CancellationError $e) {
    echo "await: ", get_class($e), "\n";
}
?>
--EXPECTF--
Warning: fdwait_read(): Read failed: Operation canceled in %s on line %d
bool(false)
the next suspension throws Async\CancellationError
await: cancelled
string(22) "after the cancellation"
call 1 failed
left the loop in call 2
await: Async\CancellationError
