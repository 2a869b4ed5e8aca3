--TEST--
Rule C18: stream_select() on a non-socket stream (a proc_open pipe) waits in the coroutine too
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$proc = proc_open([PHP_BINARY, '-n', '-r', 'usleep(100000); echo "from the child\n";'], [1 => ['pipe', 'w']], $pipes);
$selector = spawn(function () use ($pipes) {
    $read = [$pipes[1]];
    $write = $except = null;
    $n = stream_select($read, $write, $except, 10);
    echo "select: $n\n";
    echo fgets($pipes[1]);
});
spawn(function () { echo "another coroutine runs while select waits on the pipe\n"; });
await($selector);
fclose($pipes[1]);
proc_close($proc);
?>
--EXPECT--
another coroutine runs while select waits on the pipe
select: 1
from the child
