--TEST--
Rule C18: each fread() on a TCP connection waits for the stream's current timeout: a read after a longer stream_set_timeout() outlives the earlier read's deadline, a read after a shorter one times out at its own
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use function Async\delay;

$server = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
$addr = stream_socket_get_name($server, false);
$c = stream_socket_client("tcp://$addr");
$s = stream_socket_accept($server);

stream_set_timeout($s, 0, 200000);
spawn(function () use ($c) {
    delay(20);
    fwrite($c, "a");
});
// Waits (its deadline: 200 ms from now) and gets "a".
var_dump(await(spawn(fn() => fread($s, 65536))));

stream_set_timeout($s, 10);
spawn(function () use ($c) {
    delay(500); // after the first read's deadline
    fwrite($c, "b");
});
var_dump(await(spawn(fn() => fread($s, 65536))));
var_dump(stream_get_meta_data($s)['timed_out']);

stream_set_timeout($s, 0, 100000);
$start = hrtime(true);
var_dump(await(spawn(fn() => fread($s, 65536))));
var_dump(stream_get_meta_data($s)['timed_out']);
// It ended at its own deadline, long before the 10 s of the read before.
var_dump((hrtime(true) - $start) / 1e9 < 5);
?>
--EXPECT--
string(1) "a"
string(1) "b"
bool(false)
bool(false)
bool(true)
bool(true)
