--TEST--
Rule C7: one coroutine cancels another that waits; the canceller goes on
--FILE--
<?php
$victim = Async\spawn(function () {
    try { Async\await(Async\spawn(fn() => Async\delay(1000))); }
    catch (Async\CancellationError $e) { echo "victim: ", $e->getMessage(), "\n"; }
});
$killer = Async\spawn(function () use ($victim) {
    Async\suspend();
    $victim->cancel(new Async\CancellationError("by the killer"));
    echo "killer goes on\n";
});
try { Async\await($victim); } catch (Async\CancellationError) {}
Async\await($killer);
foreach (Async\getCoroutines() as $c) $c->cancel();
?>
--EXPECT--
killer goes on
victim: by the killer
