--TEST--
Rule C8: after cancelling itself a coroutine reports the request while it still runs
--FILE--
<?php
$c = Async\spawn(function () {
    $me = Async\currentCoroutine();
    $me->cancel();
    var_dump($me->isCancellationRequested(), $me->isCancelled(), $me->isRunning());
    return 1;
});
try { Async\await($c); } catch (Async\CancellationError $e) { echo "cancelled\n"; }
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
cancelled
