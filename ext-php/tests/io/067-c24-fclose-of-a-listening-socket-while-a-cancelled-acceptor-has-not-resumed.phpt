--TEST--
Rule C24: fclose() of a listening socket while a cancelled acceptor has not resumed completes, from the main flow or another coroutine; an accept loop on it gets its pending cancellation at its next call, or, not cancelled, the closed resource
--DESCRIPTION--
Issue 21 (README: "fclose() of a listening socket was seen to hang"): the
accept refused on a stream another coroutine was closing failed at once,
without suspending, so an accept loop spun for ever: the closer, waiting
for the acceptor to leave the stream, never ran again, and neither was the
loop's pending cancellation ever thrown. A refused call now makes its
coroutine yield once PHP's call has returned. The time limit turns a loop
that spins again into a failure instead of a hang.
--INI--
max_execution_time=20
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

function outcome(Async\Coroutine $c): string
{
    try {
        return var_export(await($c), true);
    } catch (Throwable $e) {
        return get_class($e) . ($e instanceof TypeError ? ': ' . $e->getMessage() : '');
    }
}

function acceptor($server): Async\Coroutine
{
    return spawn(fn() => @stream_socket_accept($server, 30));
}

function accept_loop($server, int &$calls): Async\Coroutine
{
    return spawn(function () use ($server, &$calls) {
        while (true) {
            $calls++;
            if (@stream_socket_accept($server, 30) !== false) {
                return 'accepted';
            }
        }
    });
}

echo "-- cancelled, then closed by the main flow before it resumed\n";
$server = stream_socket_server('tcp://127.0.0.1:0');
$a = acceptor($server);
delay(10);
$a->cancel();
var_dump(fclose($server));
echo "acceptor: ", outcome($a), "\n";

echo "-- cancelled, then closed by another coroutine\n";
$server = stream_socket_server('tcp://127.0.0.1:0');
$a = acceptor($server);
delay(10);
await(spawn(function () use ($a, $server) {
    $a->cancel();
    var_dump(fclose($server));
}));
echo "acceptor: ", outcome($a), "\n";

echo "-- closed, then cancelled\n";
$server = stream_socket_server('tcp://127.0.0.1:0');
$a = acceptor($server);
delay(10);
var_dump(fclose($server));
$a->cancel();
echo "acceptor: ", outcome($a), "\n";

echo "-- an accept loop, cancelled, then closed by the main flow\n";
$server = stream_socket_server('tcp://127.0.0.1:0');
$calls = 0;
$a = accept_loop($server, $calls);
delay(10);
$a->cancel();
var_dump(fclose($server));
echo "loop: ", outcome($a), " after $calls calls\n";

echo "-- an accept loop, closed by another coroutine\n";
$server = stream_socket_server('tcp://127.0.0.1:0');
$calls = 0;
$a = accept_loop($server, $calls);
delay(10);
await(spawn(fn() => var_dump(fclose($server))));
echo "loop: ", outcome($a), " after $calls calls\n";
?>
--EXPECT--
-- cancelled, then closed by the main flow before it resumed
bool(true)
acceptor: Async\CancellationError
-- cancelled, then closed by another coroutine
bool(true)
acceptor: Async\CancellationError
-- closed, then cancelled
bool(true)
acceptor: false
-- an accept loop, cancelled, then closed by the main flow
bool(true)
loop: Async\CancellationError after 2 calls
-- an accept loop, closed by another coroutine
bool(true)
loop: TypeError: stream_socket_accept(): supplied resource is not a valid stream resource after 3 calls
