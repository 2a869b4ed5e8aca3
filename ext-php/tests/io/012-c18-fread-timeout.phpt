--TEST--
Rule C18: stream_set_timeout() is honoured: a timed-out fread() returns what PHP returns and sets timed_out; others run meanwhile
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
stream_set_timeout($a, 0, 100000);
$reader = spawn(function () use ($a) {
    var_dump(fread($a, 10));
    var_dump(stream_get_meta_data($a)['timed_out']);
    var_dump(fgets($a));
    var_dump(stream_get_meta_data($a)['timed_out']);
});
spawn(function () { echo "another coroutine runs while fread waits\n"; });
await($reader);
fwrite($b, "late\n");
var_dump(await(spawn(fn() => fgets($a))));
var_dump(stream_get_meta_data($a)['timed_out'], feof($a));
?>
--EXPECT--
another coroutine runs while fread waits
bool(false)
bool(true)
bool(false)
bool(true)
string(5) "late
"
bool(false)
bool(false)
