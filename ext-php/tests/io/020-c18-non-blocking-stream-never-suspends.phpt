--TEST--
Rule C18: stream_set_blocking(false) semantics are unchanged: reads and writes return at once and never suspend
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
stream_set_blocking($a, false);
spawn(function () { echo "spawned coroutine runs\n"; });
var_dump(fread($a, 10), fgets($a));
$n = 0;
while (($w = fwrite($a, str_repeat("y", 65536))) > 0) $n += $w;
var_dump($w, $n > 0, stream_get_meta_data($a)['blocked']);
echo "main did not suspend\n";
Async\suspend();
?>
--EXPECT--
string(0) ""
bool(false)
int(0)
bool(true)
bool(false)
main did not suspend
spawned coroutine runs
