--TEST--
Rule C18: a coroutine that ignores the failure of a cancelled call gets the CancellationError at its next blocking call; the cancellation is never lost
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$c = spawn(function () {
    $i = 0;
    try {
        while (true) {
            $r = sleep(10);
            echo "sleep ", ++$i, " returned ", $r > 0 ? "early" : "0", "\n";
        }
    } finally {
        echo "loop left after $i calls\n";
    }
});
spawn(function () use ($c) { $c->cancel(); });
try {
    await($c);
} catch (Async\CancellationError $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
sleep 1 returned early
loop left after 1 calls
Async\CancellationError
