--TEST--
Rule C18: stream_select() with a timeout returns 0 and empties the arrays when nothing is ready; others run meanwhile
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$selector = spawn(function () use ($a) {
    $read = [$a];
    $write = [];
    $except = null;
    var_dump(stream_select($read, $write, $except, 0, 100000));
    var_dump($read, $write, $except);
});
spawn(function () { echo "another coroutine runs while select waits\n"; });
await($selector);
?>
--EXPECT--
another coroutine runs while select waits
int(0)
array(0) {
}
array(0) {
}
NULL
