--TEST--
Rule C11/C15: cleanup is never skipped: a handler queued when graceful shutdown starts still runs, and shutdown does not interrupt its waits
--FILE--
<?php
$c = Async\spawn(fn() => "done");
$c->onFinally(function () {
    echo "cleanup starts\n";
    Async\delay(10);
    echo "cleanup ends\n";
});
Async\spawn(function () {
    try {
        Async\delay(60000);
    } catch (Async\CancellationError $e) {
        echo "worker cancelled\n";
    }
});
Async\suspend();
echo "shutdown\n";
Async\gracefulShutdown();
Async\suspend();
?>
--EXPECT--
shutdown
cleanup starts
worker cancelled
cleanup ends
