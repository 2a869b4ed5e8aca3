--TEST--
Rule C18: end of stream inside a coroutine: fread() returns the rest, feof() is true, then reads return ""/false, fgets() returns false
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    var_dump(fread($a, 100));
    var_dump(feof($a));
    var_dump(fread($a, 100), feof($a), fgets($a), fgetc($a), stream_get_contents($a));
});
spawn(function () use ($b) {
    fwrite($b, "last words");
    fclose($b);
});
await($reader);
?>
--EXPECT--
string(10) "last words"
bool(true)
string(0) ""
bool(true)
bool(false)
bool(false)
string(0) ""
