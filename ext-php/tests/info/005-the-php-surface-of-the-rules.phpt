--TEST--
docs/rules.md: the functions, interfaces and classes of the PHP surface exist with the RFC's signatures
--FILE--
<?php
foreach (['spawn', 'suspend', 'await', 'await_all', 'await_all_or_fail', 'await_any_or_fail', 'await_first_success',
          'await_any_of', 'await_any_of_or_fail', 'delay',
          'timeout', 'protect', 'currentCoroutine', 'getCoroutines', 'gracefulShutdown', 'currentContext',
          'coroutineContext', 'rootContext'] as $f) {
    $r = new ReflectionFunction("Async\\$f");
    echo $f, "(", implode(", ", array_map(fn($p) => ($p->getType() ? $p->getType() . " " : "") . ($p->isVariadic() ? "..." : "") . "$" . $p->getName(), $r->getParameters())), "): ", $r->getReturnType(), "\n";
}
foreach (['Awaitable', 'FutureLike', 'ScopeProvider'] as $i) {
    echo $i, ": ", (new ReflectionClass("Async\\$i"))->isInterface() ? "interface" : "?", "\n";
}
foreach (['Coroutine', 'Scope', 'Context', 'Timeout', 'TaskGroup', 'Future'] as $c) {
    $r = new ReflectionClass("Async\\$c");
    echo $c, ": final=", var_export($r->isFinal(), true), " implements ", implode(", ", $r->getInterfaceNames()), "\n";
}
$m = new ReflectionMethod('Async\Scope', 'awaitAfterCancellation');
echo "Scope::awaitAfterCancellation(", implode(", ", array_map(fn($p) => $p->getType() . " $" . $p->getName(), $m->getParameters())), ")\n";
?>
--EXPECTF--
spawn(callable $task, mixed ...$args): Async\Coroutine
suspend(): void
await(Async\FutureLike $awaitable, ?Async\Awaitable $cancellation): mixed
await_all(%s $triggers, ?Async\Awaitable $cancellation, bool $preserveKeyOrder, bool $fillNull): array
await_all_or_fail(%s $triggers, ?Async\Awaitable $cancellation, bool $preserveKeyOrder): array
await_any_or_fail(%s $triggers, ?Async\Awaitable $cancellation): mixed
await_first_success(%s $triggers, ?Async\Awaitable $cancellation): array
await_any_of(int $count, %s $triggers, ?Async\Awaitable $cancellation, bool $preserveKeyOrder, bool $fillNull): array
await_any_of_or_fail(int $count, %s $triggers, ?Async\Awaitable $cancellation, bool $preserveKeyOrder): array
delay(int $ms): void
timeout(int $ms): Async\Timeout
protect(Closure $closure): mixed
currentCoroutine(): Async\Coroutine
getCoroutines(): array
gracefulShutdown(?Async\CancellationError $cancellationError): void
currentContext(): Async\Context
coroutineContext(): Async\Context
rootContext(): Async\Context
Awaitable: interface
FutureLike: interface
ScopeProvider: interface
Coroutine: final=true implements Async\FutureLike, Async\Awaitable
Scope: final=true implements Async\ScopeProvider
Context: final=true implements%s
Timeout: final=true implements Async\FutureLike, Async\Awaitable
TaskGroup: final=true implements IteratorAggregate, Traversable, Countable, Async\ScopeProvider
Future: final=true implements Async\FutureLike, Async\Awaitable
Scope::awaitAfterCancellation(?callable $errorHandler, ?Async\Awaitable $cancellation)
