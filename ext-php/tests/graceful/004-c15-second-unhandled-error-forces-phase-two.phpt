--TEST--
Rule C15: a second unhandled error during graceful shutdown starts phase two: protect sections no longer hold the cancellation back
--FILE--
<?php
Async\spawn(function () {
    Async\protect(function () {
        try {
            Async\delay(60000);
        } catch (Async\CancellationError) {
            echo "forced out of protect\n";
        }
    });
});
Async\spawn(function () { Async\delay(1); throw new RuntimeException("first"); });
Async\spawn(function () {
    try {
        Async\protect(fn() => Async\delay(5)); // held through the first phase
    } catch (Async\CancellationError) {
        // delivered when the section ends; this coroutine then fails too
    }
    throw new RuntimeException("second");
});
?>
--EXPECTF--
Warning: Another unhandled error during shutdown: RuntimeException: second in %s on line %d
forced out of protect

Fatal error: Uncaught RuntimeException: first in %s:11
Stack trace:
#0 [internal function]: {closure}()
#1 {main}
  thrown in %s on line 11
