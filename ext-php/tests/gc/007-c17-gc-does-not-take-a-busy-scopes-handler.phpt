--TEST--
Rule C17: while its scope still has coroutines, a handler closure that holds the scope survives a collection
--FILE--
<?php
function make(): void {
    $scope = new Async\Scope();
    $scope->setExceptionHandler(function ($s, $c, $e) use ($scope) {
        echo "handler still works: ", $e->getMessage(), "\n";
    });
    $scope->spawn(function () { Async\delay(10); throw new Exception("late"); });
}
make();
gc_collect_cycles();
Async\delay(30);
echo "end\n";
?>
--EXPECT--
handler still works: late
end
