--TEST--
await_any_or_fail(): the caller can be cancelled while it waits
--FILE--
<?php
$waiter = Async\spawn(function () {
    try {
        Async\await_any_or_fail([Async\spawn(fn() => Async\delay(1000)), Async\spawn(fn() => Async\delay(1000))]);
    } catch (Async\CancellationError $e) {
        echo "waiter cancelled: ", $e->getMessage(), "\n";
    }
});
Async\suspend();
$waiter->cancel(new Async\CancellationError("stop waiting"));
try { Async\await($waiter); } catch (Async\CancellationError) {}
foreach (Async\getCoroutines() as $c) $c->cancel();
?>
--EXPECT--
waiter cancelled: stop waiting
