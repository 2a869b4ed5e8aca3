--TEST--
Rule C21: delay() is cancellable and throws the CancellationError given to cancel()
--FILE--
<?php
$c = Async\spawn(function () {
    try { Async\delay(60000); }
    catch (Async\CancellationError $e) { echo "delay threw: ", $e->getMessage(), "\n"; }
});
Async\delay(5);
$c->cancel(new Async\CancellationError("wake up"));
try { Async\await($c); } catch (Async\CancellationError) {}
?>
--EXPECT--
delay threw: wake up
