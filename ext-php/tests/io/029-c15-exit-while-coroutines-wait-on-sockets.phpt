--TEST--
Rule C18 with C15: exit() while coroutines are blocked in accept, fread and sleep ends them quietly
--FILE--
<?php
use function Async\spawn;

$server = stream_socket_server("tcp://127.0.0.1:0");
[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
spawn(function () use ($server) { stream_socket_accept($server); echo "not reached 1\n"; });
spawn(function () use ($a) { fread($a, 10); echo "not reached 2\n"; });
spawn(function () { sleep(30); echo "not reached 3\n"; });
spawn(function () { usleep(1000); echo "exiting\n"; exit(0); });
echo "main blocks in fgets\n";
fgets($b);
echo "not reached 4\n";
?>
--EXPECT--
main blocks in fgets
exiting
