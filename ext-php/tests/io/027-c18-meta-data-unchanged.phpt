--TEST--
Rule C18: stream_get_meta_data() of socket streams is PHP's: type, blocked, timed_out, eof
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$server = stream_socket_server("tcp://127.0.0.1:0");
await(spawn(function () use ($server) {
    $c = stream_socket_client("tcp://" . stream_socket_get_name($server, false));
    $m = stream_get_meta_data($c);
    var_dump(str_starts_with($m['stream_type'], 'tcp_socket'), $m['blocked'], $m['timed_out'], $m['eof'], $m['mode']);
    stream_set_blocking($c, false);
    var_dump(stream_get_meta_data($c)['blocked']);
    [$x, $y] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    var_dump(stream_get_meta_data($x)['stream_type']);
}));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(false)
string(2) "r+"
bool(false)
string(14) "generic_socket"
