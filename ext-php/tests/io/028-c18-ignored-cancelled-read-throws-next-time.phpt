--TEST--
Rule C18: a read loop that ignores a cancelled fread() ends: the next fread() throws the CancellationError
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    $failures = 0;
    try {
        while (true) {
            if (fread($a, 10) === false) $failures++;
        }
    } finally {
        echo "failed reads before the throw: $failures\n";
    }
});
spawn(function () use ($reader) { $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
failed reads before the throw: 1
Async\CancellationError
