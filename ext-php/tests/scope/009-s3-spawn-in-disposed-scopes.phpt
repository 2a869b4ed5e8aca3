--TEST--
Rule S3: a disposed scope (any strategy) and its children refuse new coroutines; so does inherit() from them
--FILE--
<?php
foreach (['dispose', 'disposeSafely', 'disposeAfterTimeout'] as $how) {
    $scope = new Async\Scope();
    $child = Async\Scope::inherit($scope);
    $how === 'disposeAfterTimeout' ? $scope->$how(1000) : $scope->$how();
    foreach ([$scope, $child] as $s) {
        try {
            $s->spawn(fn() => 1);
            echo "$how: spawned?\n";
        } catch (Async\AsyncException $e) {
            echo "$how: ", $e->getMessage(), "\n";
        }
    }
    try {
        Async\Scope::inherit($scope);
    } catch (Async\AsyncException $e) {
        echo "$how: ", $e->getMessage(), "\n";
    }
    var_dump($scope->isClosed(), $child->isClosed());
}
?>
--EXPECT--
dispose: Coroutine scope is closed
dispose: Coroutine scope is closed
dispose: Cannot create a child of a closed scope
bool(true)
bool(true)
disposeSafely: Coroutine scope is closed
disposeSafely: Coroutine scope is closed
disposeSafely: Cannot create a child of a closed scope
bool(true)
bool(true)
disposeAfterTimeout: Coroutine scope is closed
disposeAfterTimeout: Coroutine scope is closed
disposeAfterTimeout: Cannot create a child of a closed scope
bool(true)
bool(true)
