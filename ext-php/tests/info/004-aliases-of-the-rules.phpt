--TEST--
docs/rules.md, "Names and aliases": every alias names the same class, interface, function or method
--FILE--
<?php
$classes = [
    'Async\AsyncCancellation' => 'Async\CancellationError',
    'Async\OperationCanceledException' => 'Async\AwaitCancelledException',
    'Async\Completable' => 'Async\FutureLike',
];
foreach ($classes as $alias => $name) {
    echo $alias, " = ", (new ReflectionClass($alias))->getName() === $name ? $name : "?", "\n";
}
$functions = ['current_coroutine', 'get_coroutines', 'graceful_shutdown', 'current_context',
              'coroutine_context', 'root_context', 'sleep'];
foreach ($functions as $f) {
    echo "Async\\$f: ", function_exists("Async\\$f") ? "exists" : "missing", "\n";
}
foreach (['Async\Coroutine', 'Async\Scope'] as $class) {
    echo "$class::finally: ", method_exists($class, 'finally') && method_exists($class, 'onFinally') ? "exists" : "missing", "\n";
}
var_dump(Async\timeout(1) instanceof Async\Timeout);
?>
--EXPECT--
Async\AsyncCancellation = Async\CancellationError
Async\OperationCanceledException = Async\AwaitCancelledException
Async\Completable = Async\FutureLike
Async\current_coroutine: exists
Async\get_coroutines: exists
Async\graceful_shutdown: exists
Async\current_context: exists
Async\coroutine_context: exists
Async\root_context: exists
Async\sleep: exists
Async\Coroutine::finally: exists
Async\Scope::finally: exists
bool(true)
