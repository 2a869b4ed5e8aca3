--TEST--
Rule S10: a scope's exception handler (or the parent's child-scope handler) hears of a child's failure when it fails, even while a handle to the child is alive; a later await() of the child still throws the same exception; without a handler the error stays on the handle
--FILE--
<?php
$scope = new Async\Scope();
$seen = null;
$scope->setExceptionHandler(function (Async\Scope $s, Async\Coroutine $c, Throwable $e) use (&$seen) {
    $seen = $e;
    echo "handler: ", $e->getMessage(), "\n";
});
$child = $scope->spawn(function () { throw new RuntimeException("child failed"); });
Async\suspend();   // the child runs and fails
echo "the handle is still alive\n";
try {
    Async\await($child);
} catch (RuntimeException $e) {
    echo "await: ", $e->getMessage(), ", the same object: ", var_export($e === $seen, true), "\n";
}
$parent = new Async\Scope();
$parent->setChildScopeExceptionHandler(function ($s, $c, Throwable $e) { echo "child-scope handler: ", $e->getMessage(), "\n"; });
$inner = Async\Scope::inherit($parent);
$grandchild = $inner->spawn(function () { throw new RuntimeException("from a child scope"); });
Async\suspend();
$plain = new Async\Scope();
$kept = $plain->spawn(function () { throw new RuntimeException("kept on the handle"); });
Async\suspend();
echo "no handler: the scope is not cancelled: ", var_export(!$plain->isCancelled(), true), "\n";
try {
    Async\await($kept);
} catch (RuntimeException $e) {
    echo "await: ", $e->getMessage(), "\n";
}
unset($child, $grandchild);
Async\delay(5);
echo "released without a second report\n";
?>
--EXPECT--
handler: child failed
the handle is still alive
await: child failed, the same object: true
child-scope handler: from a child scope
no handler: the scope is not cancelled: true
await: kept on the handle
released without a second report
