--TEST--
Rule S10 (Future semantics): an exception nobody awaited escalates when the last handle to its coroutine is released, or at once when none is left: the scope's exception handler runs then, on the failed coroutine
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function (Async\Scope $s, Async\Coroutine $c, Throwable $e) {
    echo "handler: ", $e->getMessage(), ", completed: ", var_export($c->isCompleted(), true),
        ", on it: ", var_export($c === Async\currentCoroutine(), true), "\n";
});
$scope->spawn(fn() => throw new RuntimeException("fire and forget"));
Async\suspend();
$c = $scope->spawn(fn() => throw new RuntimeException("dropped"));
$copy = $c;
Async\suspend();
echo "one handle released\n";
unset($c);
Async\suspend();
echo "last handle released\n";
unset($copy);
Async\suspend();
echo "end\n";
?>
--EXPECT--
handler: fire and forget, completed: false, on it: true
one handle released
last handle released
handler: dropped, completed: true, on it: true
end
