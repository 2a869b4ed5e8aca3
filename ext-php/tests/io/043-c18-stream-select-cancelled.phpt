--TEST--
Rule C18: a cancelled stream_select() fails as a failed select does (warning, false) and leaves the arrays alone
--FILE--
<?php
use function Async\spawn;
use function Async\await;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$selector = spawn(function () use ($a) {
    $read = [$a];
    $write = null;
    $except = null;
    var_dump(stream_select($read, $write, $except, null));
    var_dump($read === [$a]);
});
spawn(function () use ($selector) { $selector->cancel(); });
try {
    await($selector);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
?>
--EXPECTF--
Warning: stream_select(): Unable to select [%d]: %s (max_fd=%d) in %s on line %d
bool(false)
bool(true)
await: cancelled
