--TEST--
Rule G1/S6: cancel() cancels every task; all() then fails with a CancellationError; spawning afterwards is refused (the group is closed)
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () {
    try { Async\delay(60000); } finally { echo "task cleaned up\n"; }
});
Async\suspend();
$g->cancel(new Async\CancellationError("group cancelled"));
try {
    Async\await($g->all());
} catch (Async\CancellationError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    $g->spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
$h = new Async\TaskGroup();
$h->spawn(function () { try { Async\delay(60000); } catch (Async\CancellationError) { echo "disposed task cancelled\n"; } });
Async\suspend();
$h->dispose();
Async\suspend();
var_dump($h->getScope()->isClosed());
?>
--EXPECTF--
task cleaned up
Async\CancellationError: group cancelled
Cannot spawn tasks on a closed TaskGroup

Warning: Coroutine spawned at %s:19 is cancelled by the Scope disposed at %s:21 in %s on line 21
disposed task cancelled
bool(true)
