--TEST--
Rule G1/S10: a plain coroutine spawned inside a task lands in the group's scope; its unhandled error fails that scope (tasks are cancelled)
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawnWithKey('worker', function () {
    Async\spawn(function () { throw new RuntimeException("helper failed"); });
    try {
        Async\delay(60000);
    } catch (Async\CancellationError $e) {
        echo "worker: ", $e->getMessage(), "\n";
        throw $e;
    }
});
foreach ($g as $k => [$r, $e]) {
    echo "$k: ", get_class($e), "\n";
}
try {
    $g->getScope()->awaitCompletion(Async\timeout(10));
} catch (RuntimeException $e) {
    echo "the group's scope failed with: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
worker: Scope cancelled by an unhandled error: RuntimeException: helper failed
worker: Async\CancellationError
the group's scope failed with: helper failed
