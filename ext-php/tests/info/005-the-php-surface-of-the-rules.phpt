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
// The toolkit (rules T1-T5) and what goes with it, with the reference
// implementation's names and signatures.
foreach (['signal', 'spawn_with', 'iterate', 'runtime_stats', 'get_coroutines'] as $f) {
    $r = new ReflectionFunction("Async\\$f");
    echo $f, "(", implode(", ", array_map(fn($p) => ($p->getType() ? $p->getType() . " " : "") . ($p->isVariadic() ? "..." : "") . "$" . $p->getName(), $r->getParameters())), "): ", $r->getReturnType(), "\n";
}
foreach (['SpawnStrategy', 'CircuitBreaker', 'CircuitBreakerStrategy'] as $i) {
    $r = new ReflectionClass("Async\\$i");
    echo $i, ": interface ", implode(", ", $r->getInterfaceNames()), "\n";
}
foreach (['Channel', 'FutureState', 'Pool', 'TaskSet'] as $c) {
    $r = new ReflectionClass("Async\\$c");
    echo $c, ": final=", var_export($r->isFinal(), true), " implements ", implode(", ", $r->getInterfaceNames()), "\n";
    foreach ($r->getMethods() as $m) {
        echo "  ", $m->getName(), "(", implode(", ", array_map(fn($p) => ($p->getType() ? $p->getType() . " " : "") . ($p->isVariadic() ? "..." : "") . "$" . $p->getName(), $m->getParameters())), ")", $m->getReturnType() ? ": " . $m->getReturnType() : "", "\n";
    }
}
foreach (['ChannelCloseReason', 'CircuitBreakerState', 'Signal'] as $e) {
    echo $e, ": ", implode(", ", array_map(fn($c) => $c->name, ("Async\\$e")::cases())), "\n";
}
foreach (['ChannelException', 'PoolException', 'ServiceUnavailableException', 'TimeoutException', 'CompositeException'] as $x) {
    echo $x, " extends ", get_parent_class("Async\\$x"), "\n";
}
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
signal(Async\Signal|int $signal, ?Async\Awaitable $cancellation): Async\Future
spawn_with(Async\ScopeProvider $provider, callable $task, mixed ...$args): Async\Coroutine
iterate(Traversable|array $iterable, callable $callback, int $concurrency, bool $cancelPending): void
runtime_stats(): array
get_coroutines(): array
SpawnStrategy: interface Async\ScopeProvider
CircuitBreaker: interface 
CircuitBreakerStrategy: interface 
Channel: final=true implements Async\Awaitable, IteratorAggregate, Traversable, Countable
  __construct(int $capacity, int $noProducerTimeout, int $noConsumerTimeout, bool $hardTimeouts)
  send(mixed $value, ?Async\Awaitable $cancellationToken): void
  sendAsync(mixed $value): bool
  recv(?Async\Awaitable $cancellationToken): mixed
  recvAsync(): Async\Future
  close(): void
  isClosed(): bool
  capacity(): int
  count(): int
  isEmpty(): bool
  isFull(): bool
  getIterator(): Iterator
FutureState: final=true implements 
  __construct()
  complete(mixed $result): void
  error(Throwable $throwable): void
  isCompleted(): bool
  ignore(): void
  getAwaitingInfo(): array
  getCreatedFileAndLine(): array
  getCreatedLocation(): string
  getCompletedFileAndLine(): array
  getCompletedLocation(): string
Pool: final=true implements Countable, Async\CircuitBreaker
  __construct(callable $factory, ?callable $destructor, ?callable $healthcheck, ?callable $beforeAcquire, ?callable $beforeRelease, int $min, int $max, int $healthcheckInterval)
  acquire(int $timeout): mixed
  tryAcquire(): mixed
  release(mixed $resource): void
  close(): void
  isClosed(): bool
  count(): int
  idleCount(): int
  activeCount(): int
  setCircuitBreakerStrategy(?Async\CircuitBreakerStrategy $strategy): void
  getState(): Async\CircuitBreakerState
  activate(): void
  deactivate(): void
  recover(): void
TaskSet: final=true implements Async\Awaitable, Countable, IteratorAggregate, Traversable
  __construct(?int $concurrency, ?int $queueLimit, ?Async\Scope $scope)
  spawn(callable $task, mixed ...$args): Async\Coroutine
  spawnWithKey(string|int $key, callable $task, mixed ...$args): Async\Coroutine
  joinNext(): Async\Future
  joinAny(): Async\Future
  joinAll(bool $ignoreErrors): Async\Future
  cancel(?Async\CancellationError $cancellation): void
  close(): void
  dispose(): void
  isFinished(): bool
  isClosed(): bool
  count(): int
  awaitCompletion(?Async\Awaitable $cancellation): void
  finally(Closure $callback): void
  getIterator(): Iterator
ChannelCloseReason: EXPLICIT, DISPOSED, NO_PRODUCERS, NO_CONSUMERS, DEADLOCK, SCOPE_DISPOSED
CircuitBreakerState: ACTIVE, INACTIVE, RECOVERING
Signal: SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGFPE, SIGKILL, SIGUSR1, SIGSEGV, SIGUSR2, SIGTERM, SIGBREAK, SIGABRT2, SIGWINCH
ChannelException extends Async\AsyncException
PoolException extends Async\AsyncException
ServiceUnavailableException extends Async\AsyncException
TimeoutException extends Exception
CompositeException extends Exception
