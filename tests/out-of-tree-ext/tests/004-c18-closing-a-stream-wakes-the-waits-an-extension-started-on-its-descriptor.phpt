--TEST--
Rule C18 from an extension built out of tree: fclose() of a pipe, a FIFO or a socket that another coroutine waits on through the ABI (on the stream's own descriptor, no timeout) ends that wait with EBADF, whoever closes it; the numbers the closes hand back work for new streams
--DESCRIPTION--
Issue 21: only the waits async.so started itself were ended when a pipe or
FIFO was closed: an extension's wait on the descriptor was never woken (no
timeout: it hung for ever, with neither a deadlock report nor a stall
warning), and the runtime kept watching a number the system hands out
again. Each wait here is bounded by the test (2 s) so that a regression
fails instead of hanging.
--EXTENSIONS--
posix
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

/* $wait() runs in a coroutine; $close() in another one (or in the main
 * flow) 20 ms later. */
function closed_while_waiting(string $label, callable $wait, callable $close, bool $from_main = false): void
{
    echo "== $label\n";
    $waiter = spawn($wait);
    if ($from_main) {
        delay(20);
        $close();
    } else {
        spawn(function () use ($close) { delay(20); $close(); });
    }
    try {
        var_dump(await($waiter, Async\timeout(2000)));
    } catch (Async\AwaitCancelledException) {
        echo "still waiting 2 s after the close\n";
        $waiter->cancel();
    }
}

$child = proc_open(['sleep', '30'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
closed_while_waiting('the read end of a pipe', fn() => fdwait_wait($pipes[1], 'r', -1.0), fn() => fclose($pipes[1]));

stream_set_blocking($pipes[0], false);
while (@fwrite($pipes[0], str_repeat('x', 65536)) > 0);
closed_while_waiting('the write end of a full pipe', fn() => fdwait_wait($pipes[0], 'w', -1.0), fn() => fclose($pipes[0]), true);
proc_terminate($child);
proc_close($child);

$fifo = sys_get_temp_dir() . '/tasync-fdwait-004-' . getmypid();
posix_mkfifo($fifo, 0600);
$f = fopen($fifo, 'r+');
closed_while_waiting('a FIFO', fn() => fdwait_wait($f, 'r', -1.0), fn() => fclose($f));
unlink($fifo);

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
closed_while_waiting('a socket, in fdwait_read()', fn() => fdwait_read($a, 100, -1.0), fn() => fclose($a), true);
fclose($b);

echo "== new streams on the numbers handed back\n";
[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$child = proc_open(['cat'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
$reads = [
    spawn(fn() => fdwait_read($a, 100, 2.0)),
    spawn(fn() => fdwait_wait($pipes[1], 'r', 2.0) ? fread($pipes[1], 100) : false),
];
spawn(function () use ($b, $pipes) {
    delay(20);
    fwrite($b, "socket data");
    fwrite($pipes[0], "pipe data");
    fclose($pipes[0]);
});
var_dump(await($reads[0]), await($reads[1]));
proc_close($child);
?>
--EXPECTF--
== the read end of a pipe

Warning: fdwait_wait(): Wait failed: Bad file descriptor in %s on line %d
bool(false)
== the write end of a full pipe

Warning: fdwait_wait(): Wait failed: Bad file descriptor in %s on line %d
bool(false)
== a FIFO

Warning: fdwait_wait(): Wait failed: Bad file descriptor in %s on line %d
bool(false)
== a socket, in fdwait_read()

Warning: fdwait_read(): Read failed: Bad file descriptor in %s on line %d
bool(false)
== new streams on the numbers handed back
string(11) "socket data"
string(9) "pipe data"
