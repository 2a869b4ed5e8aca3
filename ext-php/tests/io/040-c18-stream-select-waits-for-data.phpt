--TEST--
Rule C18: stream_select() in a coroutine waits for the first ready stream while others run, and rewrites the arrays as PHP does
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
[$c, $d] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$selector = spawn(function () use ($a, $c) {
    $read = ['first' => $a, 'second' => $c];
    $write = null;
    $except = null;
    $n = stream_select($read, $write, $except, 5);
    var_dump($n, array_keys($read));
    echo fread($read['second'], 100), "\n";
});
spawn(function () use ($d) {
    echo "writer runs while select waits\n";
    fwrite($d, "data on the second pair");
});
await($selector);
?>
--EXPECT--
writer runs while select waits
int(1)
array(1) {
  [0]=>
  string(6) "second"
}
data on the second pair
