--TEST--
Rule C24: two coroutines fclose() a socket a third one is blocked reading: the reader's fread() fails, the first close returns true once the reader left, the second fails as fclose() of a closed stream does (no coroutine waits for the other forever)
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    $r = fread($a, 10);
    echo "blocked fread returned "; var_dump($r);
});
$closer = function (string $name) use ($a) {
    return spawn(function () use ($a, $name) {
        echo "$name closing\n";
        try {
            var_dump(fclose($a));
        } catch (TypeError $e) {
            echo "$name: ", $e->getMessage(), "\n";
        }
    });
};
$first = $closer('first');
$second = $closer('second');
await($reader);
await($first);
await($second);
echo "done\n";
?>
--EXPECT--
first closing
second closing
blocked fread returned bool(false)
bool(true)
second: fclose(): supplied resource is not a valid stream resource
done
