--TEST--
Rule S10 (Future semantics): an exception nobody awaited escalates when the last handle to its coroutine is released, or at once when none is left; a scope's exception handler hears of it when it happens, on the failed coroutine, handle or not
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function (Async\Scope $s, Async\Coroutine $c, Throwable $e) {
    echo "handler: ", $e->getMessage(), ", completed: ", var_export($c->isCompleted(), true),
        ", on it: ", var_export($c === Async\currentCoroutine(), true), "\n";
});
$scope->spawn(fn() => throw new RuntimeException("fire and forget"));
Async\suspend();
$kept = $scope->spawn(fn() => throw new RuntimeException("held, heard at once"));
Async\suspend();
unset($kept);
Async\suspend();

// Without a handler the error waits on the handle.
$plain = new Async\Scope();
$c = $plain->spawn(fn() => throw new RuntimeException("dropped"));
$copy = $c;
Async\suspend();
echo "one handle released\n";
unset($c);
Async\suspend();
echo "the scope failed: ", var_export($plain->isCancelled(), true), "\n";
echo "last handle released\n";
unset($copy);
Async\suspend();
echo "the scope failed: ", var_export($plain->isCancelled(), true), "\n";
try {
    $plain->awaitCompletion(Async\timeout(1000));
} catch (RuntimeException $e) {
    echo "awaitCompletion: ", $e->getMessage(), "\n";
}
echo "end\n";
?>
--EXPECT--
handler: fire and forget, completed: false, on it: true
handler: held, heard at once, completed: false, on it: true
one handle released
the scope failed: false
last handle released
the scope failed: true
awaitCompletion: dropped
end
