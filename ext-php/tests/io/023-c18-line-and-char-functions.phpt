--TEST--
Rule C18: fgetc, fgets, stream_get_line and stream_get_contents wait for data arriving in pieces
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$reader = spawn(function () use ($a) {
    var_dump(fgetc($a));
    var_dump(fgets($a));
    var_dump(stream_get_line($a, 100, "||"));
    var_dump(stream_get_contents($a));
});
spawn(function () use ($b) {
    foreach (["x", "line ", "one\n", "rec", "ord||", "the ", "rest"] as $piece) {
        fwrite($b, $piece);
        fflush($b);
        Async\delay(10);
    }
    fclose($b);
});
await($reader);
?>
--EXPECT--
string(1) "x"
string(9) "line one
"
string(6) "record"
string(8) "the rest"
