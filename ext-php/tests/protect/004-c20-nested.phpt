--TEST--
Rule C20: protect() sections nest: the cancellation is delivered at the end of the outermost one
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        Async\protect(function () {
            Async\protect(function () { Async\delay(10); });
            echo "inner section ended, still protected\n";
            Async\delay(5);
            echo "outer section ends\n";
        });
    } catch (Async\CancellationError) {
        echo "cancellation delivered\n";
    }
});
Async\suspend();
$c->cancel();
try { Async\await($c); } catch (Async\CancellationError) {}
?>
--EXPECT--
inner section ended, still protected
outer section ends
cancellation delivered
