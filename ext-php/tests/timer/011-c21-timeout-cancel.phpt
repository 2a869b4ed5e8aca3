--TEST--
Rule C21: a Timeout is FutureLike: await() returns null when it fires; cancel() stops it: awaiting it throws the cancellation, a wait that used it as cancellation goes on
--FILE--
<?php
$t = Async\timeout(5);
var_dump($t instanceof Async\FutureLike, Async\await($t), $t->isCompleted(), $t->isCancelled());
$t->cancel();
var_dump($t->isCancelled());

// The deadline is cancelled long before it is due (also under valgrind), and
// the work outlives the time it was due at.
$deadline = Async\timeout(500);
$work = Async\spawn(function () use ($deadline) { Async\delay(5); $deadline->cancel(new Async\CancellationError("no deadline after all")); Async\delay(600); return "work done"; });
echo Async\await($work, $deadline), "\n";
var_dump($deadline->isCompleted(), $deadline->isCancelled());
try {
    Async\await($deadline);
} catch (Async\CancellationError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$early = Async\timeout(1000);
$early->cancel();
echo Async\await(Async\spawn(fn() => "a cancelled timeout never fires"), $early), "\n";
try {
    Async\await_any_or_fail([$early]);
} catch (Async\CancellationError $e) {
    echo "await_any_or_fail: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
bool(true)
NULL
bool(true)
bool(false)
bool(false)
work done
bool(true)
bool(true)
Async\CancellationError: no deadline after all
a cancelled timeout never fires
await_any_or_fail: Timeout cancelled at %s:19
