--TEST--
Rule C18: stream_select() inside a coroutine rejects bad arguments with PHP's own errors
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
await(spawn(function () use ($a) {
    $calls = [
        function () { $r = []; $w = null; $e = null; return stream_select($r, $w, $e, 1); },
        function () use ($a) { $r = [$a]; $w = null; $e = null; return stream_select($r, $w, $e, -1); },
        function () use ($a) { $r = [$a]; $w = null; $e = null; return stream_select($r, $w, $e, null, 5); },
        function () use ($a) { $r = [$a]; $w = null; $e = null; return stream_select($r, $w, $e, 1, -5); },
        function () use ($a) { $r = [$a]; $w = null; $e = null; return stream_select($r, $w, $e, "x"); },
    ];
    foreach ($calls as $call) {
        try {
            var_dump($call());
        } catch (Throwable $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}));
?>
--EXPECT--
ValueError: No stream arrays were passed
ValueError: stream_select(): Argument #4 ($seconds) must be greater than or equal to 0
ValueError: stream_select(): Argument #5 ($microseconds) must be null when argument #4 ($seconds) is null
ValueError: stream_select(): Argument #5 ($microseconds) must be greater than or equal to 0
TypeError: stream_select(): Argument #4 ($seconds) must be of type ?int, string given
