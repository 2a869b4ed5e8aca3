--TEST--
Rule C18 with C3: the main flow blocked in fgets() lets the coroutine that writes run
--FILE--
<?php
use function Async\spawn;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
spawn(function () use ($b) {
    echo "writer runs while main waits\n";
    fwrite($b, "from the coroutine\n");
});
echo "main reads\n";
echo fgets($a);
echo "main done\n";
?>
--EXPECT--
main reads
writer runs while main waits
from the coroutine
main done
