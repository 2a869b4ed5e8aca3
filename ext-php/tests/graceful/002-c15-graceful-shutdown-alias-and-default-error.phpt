--TEST--
Rule C15: graceful_shutdown() is the alias; without an argument a CancellationError is made; a second call does nothing
--FILE--
<?php
Async\spawn(function () {
    try { Async\delay(60000); } catch (Async\CancellationError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
});
Async\suspend();
Async\spawn(function () {
    Async\graceful_shutdown();
    Async\gracefulShutdown(new Async\CancellationError("ignored"));
});
try {
    Async\delay(60000);
} catch (Async\CancellationError $e) {
    echo "main: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
main: Graceful shutdown
Async\CancellationError: Graceful shutdown
