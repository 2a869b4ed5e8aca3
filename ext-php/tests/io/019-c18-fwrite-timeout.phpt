--TEST--
Rule C18: a blocked fwrite() honours the stream timeout and fails as PHP's does (notice, timed_out); others run meanwhile
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
stream_set_timeout($a, 0, 100000);
$writer = spawn(function () use ($a) {
    $n = fwrite($a, str_repeat("x", 8 << 20));
    var_dump($n > 0 && $n < (8 << 20));
    var_dump(stream_get_meta_data($a)['timed_out']);
});
spawn(function () { echo "another coroutine runs while fwrite waits\n"; });
await($writer);
?>
--EXPECTF--
another coroutine runs while fwrite waits

Notice: fwrite(): Send of %d bytes failed with errno=11 Resource temporarily unavailable in %s on line %d
bool(true)
bool(true)
