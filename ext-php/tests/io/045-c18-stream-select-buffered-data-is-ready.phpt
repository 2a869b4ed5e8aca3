--TEST--
Rule C18: a stream with data already in PHP's read buffer is ready for stream_select() at once, as in PHP
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
fwrite($b, "one\ntwo\n");
await(spawn(function () use ($a) {
    echo fgets($a);
    $read = [$a]; $write = $except = null;
    var_dump(stream_select($read, $write, $except, 5));
    echo fgets($a);
    $read = [$a];
    var_dump(stream_select($read, $write, $except, 0, 50000));
}));
?>
--EXPECT--
one
int(1)
two
int(0)
