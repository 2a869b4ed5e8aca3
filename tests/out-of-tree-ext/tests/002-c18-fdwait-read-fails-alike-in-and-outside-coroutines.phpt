--TEST--
Rule C18 from an extension built out of tree: fdwait_read() gives the same results, warnings and errors outside coroutines (poll(2), blocking) and inside one (the runtime's wait with a deadline): data, end of stream, a timeout after the time given, a wrong argument
--FILE--
<?php
use function Async\spawn;
use function Async\await;

function scenario(string $where): void
{
    echo "== $where\n";
    [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    fwrite($b, "ready");
    var_dump(fdwait_read($a, 3, 1.0), fdwait_read($a, 100, 1.0));
    $t = hrtime(true);
    var_dump(fdwait_read($a, 100, 0.1));
    $ms = (hrtime(true) - $t) / 1e6;
    echo "timed out after the time given: ", $ms >= 95 ? "yes" : "no ($ms ms)", "\n";
    fclose($b);
    var_dump(fdwait_read($a, 100, 1.0));
    try {
        fdwait_read($a, 0, 1.0);
    } catch (ValueError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    try {
        fdwait_read(fopen(__FILE__, 'r'), 10, 1.0);
    } catch (TypeError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

// No runtime yet: the extension's blocking behaviour.
scenario("outside coroutines");
await(spawn(fn() => scenario("in a coroutine")));
?>
--EXPECTF--
== outside coroutines
string(3) "rea"
string(2) "dy"

Warning: fdwait_read(): Read failed: %s in %s on line %d
bool(false)
timed out after the time given: yes
string(0) ""
ValueError: fdwait_read(): Argument #2 ($length) must be greater than 0
TypeError: fdwait_read(): Argument #1 ($socket) must be a socket stream
== in a coroutine
string(3) "rea"
string(2) "dy"

Warning: fdwait_read(): Read failed: %s in %s on line %d
bool(false)
timed out after the time given: yes
string(0) ""
ValueError: fdwait_read(): Argument #2 ($length) must be greater than 0
TypeError: fdwait_read(): Argument #1 ($socket) must be a socket stream
