--TEST--
Rules C18 and C24: an fread() that waits after a short read on a TCP connection times out as PHP does (false and timed_out, cleared by the next read), fails with its cancellation (false, the stream failed) and fails when another coroutine closes the stream
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
$addr = stream_socket_get_name($server, false);
function pair($server, $addr): array
{
    $c = stream_socket_client("tcp://$addr");
    return [$c, stream_socket_accept($server)];
}

echo "-- timeout\n";
[$c, $s] = pair($server, $addr);
stream_set_timeout($s, 0, 100000);
fwrite($c, "a");
await(spawn(function () use ($s) {
    var_dump(fread($s, 65536));
    var_dump(fread($s, 65536));
    var_dump(stream_get_meta_data($s)['timed_out']);
}));
fwrite($c, "late");
var_dump(await(spawn(fn() => fread($s, 65536))));
var_dump(stream_get_meta_data($s)['timed_out']);

echo "-- cancellation\n";
$reader = spawn(function () use ($s) {
    $r = fread($s, 65536);
    echo "fread returned "; var_dump($r);
    Async\suspend();
});
spawn(function () use ($reader) { $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
var_dump(fread($c, 100), feof($c));

echo "-- fclose\n";
[$c, $s] = pair($server, $addr);
fwrite($c, "b");
$reader = spawn(function () use ($s) {
    var_dump(fread($s, 65536));
    $r = fread($s, 65536);
    echo "blocked fread returned "; var_dump($r);
});
$closer = spawn(function () use ($s) {
    echo "closing\n";
    var_dump(fclose($s));
});
await($reader);
await($closer);
?>
--EXPECT--
-- timeout
string(1) "a"
bool(false)
bool(true)
string(4) "late"
bool(false)
-- cancellation
fread returned bool(false)
await: cancelled
string(0) ""
bool(true)
-- fclose
string(1) "b"
closing
blocked fread returned bool(false)
bool(true)
