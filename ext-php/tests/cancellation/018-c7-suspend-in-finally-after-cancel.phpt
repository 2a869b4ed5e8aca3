--TEST--
Rule C7: a cancelled coroutine may suspend and await in its finally block
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        Async\delay(1000);
    } finally {
        Async\suspend();
        echo "cleanup awaited: ", Async\await(Async\spawn(fn() => "ok")), "\n";
    }
});
Async\suspend();
$c->cancel();
try { Async\await($c); } catch (Async\CancellationError) { echo "cancelled after cleanup\n"; }
?>
--EXPECT--
cleanup awaited: ok
cancelled after cleanup
