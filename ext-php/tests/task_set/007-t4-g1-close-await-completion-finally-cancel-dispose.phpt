--TEST--
Rules T4 and G1: a TaskSet closes, is awaited with awaitCompletion() once closed, runs its finally handlers with itself, and cancel()/dispose() close it and cancel its tasks
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawn(function () { Async\delay(5); return 1; });
$set->finally(function (Async\TaskSet $s) use ($set) { echo "finally: same set ", var_export($s === $set, true), "\n"; });
try {
    $set->awaitCompletion();
} catch (Async\AsyncException $e) {
    echo "not closed: AsyncException\n";
}
$set->close();
var_dump($set->isClosed());
try {
    $set->spawn(fn () => 2);
} catch (Async\AsyncException $e) {
    echo "spawn after close: AsyncException\n";
}
$set->awaitCompletion();
var_dump($set->isFinished(), count($set));

$doomed = new Async\TaskSet();
$doomed->spawn(function () {
    try {
        Async\delay(1000);
    } catch (Async\CancellationError $e) {
        echo "task cancelled\n";
        throw $e;
    }
});
Async\delay(1);
$doomed->cancel();
var_dump($doomed->isClosed());
Async\delay(5);
$disposed = new Async\TaskSet();
$disposed->spawn(fn () => Async\delay(1000));
$disposed->dispose();
var_dump($disposed->isClosed());
?>
--EXPECTF--
not closed: AsyncException
bool(true)
spawn after close: AsyncException
finally: same set true
bool(true)
int(1)
bool(true)
task cancelled
%Abool(true)
