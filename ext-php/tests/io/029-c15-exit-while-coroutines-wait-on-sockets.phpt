--TEST--
Rules C15 with C18: exit() cancels coroutines blocked in accept, fread and sleep; each call fails as PHP documents and the next blocking call throws
--FILE--
<?php
use function Async\spawn;

$server = stream_socket_server("tcp://127.0.0.1:0");
[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
register_shutdown_function(function () { echo "shutdown function\n"; });
spawn(function () use ($server) {
    var_dump(@stream_socket_accept($server));
    try {
        usleep(1000);
        echo "not reached 1\n";
    } catch (Async\CancellationError $e) {
        echo "accept coroutine: ", $e->getMessage(), "\n";
    }
});
spawn(function () use ($a) {
    var_dump(fread($a, 10));
    try {
        fread($a, 10);
        echo "not reached 2\n";
    } finally {
        echo "fread coroutine: finally\n";
    }
});
spawn(function () { var_dump(sleep(30) > 0); });
spawn(function () { usleep(1000); echo "exiting\n"; exit(3); });
echo "main blocks in fgets\n";
var_dump(fgets($b));
Async\delay(1);
echo "not reached 4\n";
?>
--EXPECT--
main blocks in fgets
exiting
bool(false)
bool(false)
accept coroutine: Graceful shutdown: exit() was called
bool(false)
fread coroutine: finally
bool(true)
shutdown function
