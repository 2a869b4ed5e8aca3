--TEST--
Rule C7: a cancellation is delivered once; a coroutine that caught it can wait again
--FILE--
<?php
$c = Async\spawn(function () {
    try { Async\delay(1000); } catch (Async\CancellationError $e) { echo "first wait cancelled\n"; }
    Async\delay(5);
    echo "second wait completed\n";
});
Async\suspend();
$c->cancel();
try { Async\await($c); } catch (Async\CancellationError $e) { echo "ends cancelled\n"; }
?>
--EXPECT--
first wait cancelled
second wait completed
ends cancelled
