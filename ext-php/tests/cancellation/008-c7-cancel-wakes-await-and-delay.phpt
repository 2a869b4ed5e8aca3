--TEST--
Rule C7: cancel() wakes a coroutine waiting in await() or delay()
--FILE--
<?php
$forever = Async\spawn(fn() => Async\delay(100000));
$awaiting = Async\spawn(function () use ($forever) {
    try { Async\await($forever); } catch (Async\CancellationError $e) { echo "await interrupted\n"; }
});
$delaying = Async\spawn(function () {
    try { Async\delay(100000); } catch (Async\CancellationError $e) { echo "delay interrupted\n"; }
});
Async\suspend();
$awaiting->cancel();
$delaying->cancel();
$forever->cancel();
// A coroutine that caught its cancellation still ends cancelled (C7).
foreach ([$awaiting, $delaying] as $c) {
    try { Async\await($c); } catch (Async\CancellationError $e) { echo "await: cancelled\n"; }
}
var_dump($forever->isCancelled(), $awaiting->isCancelled());
?>
--EXPECT--
await interrupted
delay interrupted
await: cancelled
await: cancelled
bool(true)
bool(true)
