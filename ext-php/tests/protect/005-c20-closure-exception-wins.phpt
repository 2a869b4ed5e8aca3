--TEST--
Rule C20: when the closure throws and a cancellation is pending, the closure's exception goes on, carrying the cancellation as its previous exception (chosen)
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        Async\protect(function () {
            Async\delay(10);
            throw new RuntimeException("closure failed");
        });
    } catch (RuntimeException $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
        echo "previous: ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n";
    }
    echo "the coroutine goes on\n";
});
Async\suspend();
$c->cancel(new Async\CancellationError("held back"));
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "it still ends cancelled (C8): ", $e->getMessage(), "\n";
}
?>
--EXPECT--
RuntimeException: closure failed
previous: Async\CancellationError: held back
the coroutine goes on
it still ends cancelled (C8): held back
