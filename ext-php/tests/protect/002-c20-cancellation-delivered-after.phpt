--TEST--
Rule C20: a cancellation requested during protect() is delivered as soon as the closure returns, as a CancellationError from protect()
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        $r = Async\protect(function () {
            Async\delay(20);
            echo "the protected work finished\n";
            return "work result";
        });
        echo "not reached: $r\n";
    } catch (Async\CancellationError $e) {
        echo "delivered after protect: ", $e->getMessage(), "\n";
    }
});
Async\suspend();
$c->cancel(new Async\CancellationError("cancelled meanwhile"));
echo "cancel requested\n";
try { Async\await($c); } catch (Async\CancellationError) { echo "the coroutine ended cancelled\n"; }
?>
--EXPECT--
cancel requested
the protected work finished
delivered after protect: cancelled meanwhile
the coroutine ended cancelled
