--TEST--
Rule C17: while its scope still has coroutines, a handler closure that holds the scope survives a collection
--FILE--
<?php
function make(): void {
    $scope = new Async\Scope();
    $scope->setExceptionHandler(function ($s, $c, $e) use ($scope) {
        echo "handler still works: ", $e->getMessage(), "\n";
        $GLOBALS['handled'] = true;
    });
    $scope->spawn(function () { Async\delay(10); throw new Exception("late"); });
}
make();
gc_collect_cycles();
// Wait for the handler without betting on timer order: a busy machine can
// delay the coroutine's start past a fixed sleep of the main flow.
$handled = false;
for ($i = 0; $i < 1000 && !$handled; $i++) {
    Async\delay(5);
}
echo "end\n";
?>
--EXPECT--
handler still works: late
end
