--TEST--
Rule S10 (Future semantics): when the garbage collector releases the last handle, the escalation is queued (no PHP code runs inside the collection) and happens at the next switch
--FILE--
<?php
// No exception handler: the escalation fails the scope (a handler would
// have heard of the failure when it happened, while the handle lived).
$scope = new Async\Scope();
$holder = new stdClass();
$holder->self = $holder;
$holder->task = $scope->spawn(fn() => throw new RuntimeException("collected"));
Async\suspend();
unset($holder);
echo "collecting\n";
var_dump(gc_collect_cycles() > 0);
echo "collected, the scope failed: ", var_export($scope->isCancelled(), true), "\n";
Async\suspend();
echo "after a switch, the scope failed: ", var_export($scope->isCancelled(), true), "\n";
try {
    $scope->awaitCompletion(Async\timeout(1000));
} catch (RuntimeException $e) {
    echo "awaitCompletion: ", $e->getMessage(), "\n";
}
echo "end\n";
?>
--EXPECT--
collecting
bool(true)
collected, the scope failed: false
after a switch, the scope failed: true
awaitCompletion: collected
end
