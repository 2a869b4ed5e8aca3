<?php

/**
 * The functions of the True Async API (docs/rules.md). Each maps onto
 * the tasync C ABI; the semantic rules live in the core.
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * Queues a coroutine running $task(...$args) in the current scope (rule C1:
 * it starts when the caller suspends) and returns it.
 */
function spawn(callable $task, mixed ...$args): Coroutine {}

/** Yields to the scheduler; FIFO order (rule C2). */
function suspend(): void {}

/**
 * Waits until $awaitable completes and returns its result or throws its
 * exception, the same object to every awaiter (C4). When $cancellation
 * completes first, throws AwaitCancelledException (C5).
 */
function await(FutureLike $awaitable, ?Awaitable $cancellation = null): mixed {}

/*
 * The await_*() functions (rule G2) map an iterable onto the core's
 * await-many primitive: each awaitable is subscribed to as the iterable
 * produces it (an awaitable already handed over counts as awaited, rule
 * S10, even if the iterable throws afterwards), and the whole iterable is
 * consumed before the function waits. Results and errors are keyed like
 * the input. With $preserveKeyOrder (the default) results follow the
 * order of the input, else the order in which the awaitables completed;
 * with $fillNull every key of the input has a slot in the results, null
 * for an awaitable that failed or was not waited for. Errors are in
 * completion order. When $cancellation completes first they throw
 * AwaitCancelledException (C5); the awaitables go on.
 */

/**
 * Waits for every awaitable. Returns [array $results, array $errors]: a
 * key is in $results if that awaitable succeeded, in $errors if it failed.
 */
function await_all(iterable $triggers, ?Awaitable $cancellation = null, bool $preserveKeyOrder = true, bool $fillNull = false): array {}

/**
 * Waits for every awaitable and returns their results; throws the first
 * exception as soon as one of them fails (the others go on).
 */
function await_all_or_fail(iterable $triggers, ?Awaitable $cancellation = null, bool $preserveKeyOrder = true): array {}

/**
 * Returns the result of the first awaitable to complete, or throws its
 * exception if it failed. An empty iterable is a ValueError.
 */
function await_any_or_fail(iterable $triggers, ?Awaitable $cancellation = null): mixed {}

/**
 * Returns [mixed $result, array $errors]: the result of the first awaitable
 * that succeeds and the errors of those that failed before it. When all of
 * them fail, $result is null and $errors holds every error. An empty
 * iterable is a ValueError.
 */
function await_first_success(iterable $triggers, ?Awaitable $cancellation = null): array {}

/**
 * Waits until $count awaitables succeeded (failures are collected, not
 * thrown), or until every awaitable completed when fewer can succeed.
 * Returns [array $results, array $errors]. $count < 0 is a ValueError;
 * 0 returns at once.
 */
function await_any_of(int $count, iterable $triggers, ?Awaitable $cancellation = null, bool $preserveKeyOrder = true, bool $fillNull = false): array {}

/**
 * Waits until $count awaitables succeeded and returns their results;
 * throws the first exception as soon as one fails. With fewer awaitables
 * than $count, returns when every one of them succeeded.
 */
function await_any_of_or_fail(int $count, iterable $triggers, ?Awaitable $cancellation = null, bool $preserveKeyOrder = true): array {}

/** Suspends the current coroutine for $ms milliseconds; cancellable (C21). */
function delay(int $ms): void {}

/** Alias of Async\delay() (docs/rules.md, "Names and aliases"). */
function sleep(int $ms): void {}

/** An Awaitable that completes $ms milliseconds from now (C21). */
function timeout(int $ms): Timeout {}

/**
 * The signals by name (their numbers as the reference implementation
 * gives them); signal() also takes a number.
 */
enum Signal: int
{
    case SIGHUP = 1;
    case SIGINT = 2;
    case SIGQUIT = 3;
    case SIGILL = 4;
    case SIGABRT = 6;
    case SIGFPE = 8;
    case SIGKILL = 9;
    case SIGUSR1 = 10;
    case SIGSEGV = 11;
    case SIGUSR2 = 12;
    case SIGTERM = 15;
    case SIGBREAK = 21;
    case SIGABRT2 = 22;
    case SIGWINCH = 28;
}

/**
 * A Future that completes when the process next receives $signal (rule
 * C26), with its Signal case (its number when Signal has no case for it):
 * await it to wait. Every Future waiting for the signal when it arrives
 * completes; one that arrives while nothing waits is kept for the next
 * wait. From the first wait on, the signal is the runtime's until the end
 * of the request (it no longer has its default action), and handlers
 * installed with pcntl_signal(), before or after, still run. Throws
 * ValueError for a number that is not a signal, for SIGKILL and SIGSTOP,
 * for the fault signals (SIGSEGV and SIGBUS are the guard-page handler's,
 * SIGFPE, SIGILL) and the C library's own. The Future fails with
 * AwaitCancelledException when $cancellation completes first (at once when
 * it has completed already); cancelling the Future, or dropping the last
 * reference to it, ends the wait.
 */
function signal(Signal|int $signal, ?Awaitable $cancellation = null): Future {}

/**
 * Spawns $task(...$args) into the scope $provider provides (null: the
 * current scope). A SpawnStrategy hears of the coroutine before and after
 * it is queued (it starts only when the caller suspends, rule C1); when
 * beforeCoroutineEnqueue() throws, the coroutine never starts.
 */
function spawn_with(ScopeProvider $provider, callable $task, mixed ...$args): Coroutine {}

/**
 * A bounded concurrent foreach: $callback($value, $key) runs for each
 * element in a coroutine of its own, at most $concurrency at a time (0: no
 * limit), in a child scope of the current one; the calling coroutine
 * waits until all have ended. A callback that returns false stops the
 * iteration (the running ones end); one that throws stops it too, and its
 * exception is thrown here once the others ended. Coroutines the callbacks
 * spawned are cancelled at the end when $cancelPending (and awaited
 * otherwise); after an exception the running callbacks are cancelled too
 * when $cancelPending.
 */
function iterate(iterable $iterable, callable $callback, int $concurrency = 0, bool $cancelPending = true): void {}

/**
 * Counters of the runtime: coroutines_total (unfinished coroutines, the
 * main one included), coroutines_active (those that are not zombies),
 * coroutines_queued, coroutines_suspended, coroutines_zombie,
 * fiber_stack_size (async.stack_size in bytes), fiber_pool_min
 * (async.stack_cache).
 *
 * @return array<string, int>
 */
function runtime_stats(): array {}

/** The running coroutine; in the main flow, the main coroutine (C3). */
function currentCoroutine(): Coroutine {}

/** Alias of Async\currentCoroutine() (docs/rules.md, "Names and aliases"). */
function current_coroutine(): Coroutine {}

/**
 * Every coroutine that has not completed yet: the main coroutine first,
 * then in spawn order (zombies included).
 *
 * @return array<int, Coroutine>
 */
function getCoroutines(): array {}

/**
 * Alias of Async\getCoroutines() (docs/rules.md, "Names and aliases").
 *
 * @return array<int, Coroutine>
 */
function get_coroutines(): array {}

/**
 * Runs $closure with cancellation held back (rule C20): a cancellation of
 * the calling coroutine requested meanwhile is delivered as soon as the
 * closure returns, as a CancellationError thrown by protect(). If the
 * closure itself throws, its exception wins and the cancellation stays
 * pending for the next suspension point.
 */
function protect(\Closure $closure): mixed {}

/**
 * Starts graceful shutdown (rule C15): every coroutine is cancelled with
 * $cancellationError (a new CancellationError when null); new coroutines
 * may still be spawned. Calling it again while it runs does nothing.
 */
function gracefulShutdown(?CancellationError $cancellationError = null): void {}

/** Alias of Async\gracefulShutdown() (docs/rules.md, "Names and aliases"). */
function graceful_shutdown(?CancellationError $cancellationError = null): void {}

/** The context of the current scope (rule X2). */
function currentContext(): Context {}

/** Alias of Async\currentContext() (docs/rules.md, "Names and aliases"). */
function current_context(): Context {}

/**
 * The running coroutine's private context, freed with it (rule X2); in
 * the main flow, the main coroutine's.
 */
function coroutineContext(): Context {}

/** Alias of Async\coroutineContext() (docs/rules.md, "Names and aliases"). */
function coroutine_context(): Context {}

/** The context of the global scope, the root of every context (rule X2). */
function rootContext(): Context {}

/** Alias of Async\rootContext() (docs/rules.md, "Names and aliases"). */
function root_context(): Context {}

/** Something that can be waited for. Implemented by internal classes only. */
interface Awaitable {}

/**
 * A single-assignment Awaitable: it completes once and keeps its result.
 *
 * @alias Async\Completable
 */
interface FutureLike extends Awaitable
{
    public function cancel(?CancellationError $cancellation = null): void;

    public function isCompleted(): bool;

    public function isCancelled(): bool;
}

/**
 * Something that provides a scope to spawn into or to inherit from
 * (Async\Scope itself, Async\TaskGroup). null means "the current scope".
 */
interface ScopeProvider
{
    public function provideScope(): ?Scope;
}

/**
 * A ScopeProvider that hears of each coroutine spawn_with() spawns into its
 * scope: before it is queued (the array it returns is reserved) and after.
 */
interface SpawnStrategy extends ScopeProvider
{
    public function beforeCoroutineEnqueue(Coroutine $coroutine, Scope $scope): array;

    public function afterCoroutineEnqueue(Coroutine $coroutine, Scope $scope): void;
}
