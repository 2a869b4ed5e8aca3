--TEST--
Rule S10 (Future semantics): when the garbage collector releases the last handle, the escalation is queued (no PHP code runs inside the collection) and happens at the next switch
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo "handler: ", $e->getMessage(), "\n";
});
$holder = new stdClass();
$holder->self = $holder;
$holder->task = $scope->spawn(fn() => throw new RuntimeException("collected"));
Async\suspend();
unset($holder);
echo "collecting\n";
var_dump(gc_collect_cycles() > 0);
echo "collected\n";
Async\suspend();
echo "end\n";
?>
--EXPECT--
collecting
bool(true)
collected
handler: collected
end
