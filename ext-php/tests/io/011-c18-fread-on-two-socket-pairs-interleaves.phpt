--TEST--
Rule C18: two coroutines each blocked in fgets() on their own socket pair are served in the order the data arrives
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
[$c, $d] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$log = [];
$r1 = spawn(function () use ($a, &$log) {
    while (($line = fgets($a)) !== false) $log[] = "reader 1: " . trim($line);
});
$r2 = spawn(function () use ($c, &$log) {
    while (($line = fgets($c)) !== false) $log[] = "reader 2: " . trim($line);
});
// Each write is answered before the next one: the readers' order is the writes' order.
for ($i = 0; $i < 3; $i++) {
    fwrite($b, "b$i\n");
    Async\delay(40);
    fwrite($d, "d$i\n");
    Async\delay(40);
}
fclose($b);
fclose($d);
await($r1);
await($r2);
echo implode("\n", $log), "\n";
?>
--EXPECT--
reader 1: b0
reader 2: d0
reader 1: b1
reader 2: d1
reader 1: b2
reader 2: d2
