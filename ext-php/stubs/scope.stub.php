<?php

/**
 * Async\Scope: structured concurrency (docs/rules.md, rules S1-S15). Each
 * object stands for one scope of the core; the rules are the core's.
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * A group of coroutines with a shared lifetime. Reading $scope->context
 * gives the scope's Context (as getContext() does).
 *
 * @strict-properties
 * @not-serializable
 */
final class Scope implements ScopeProvider
{
    /** A new independent root scope (rule S1). */
    public function __construct() {}

    /**
     * A child of $parentScope's scope, or of the current scope (S1). It
     * inherits the not-safely flag (S8).
     */
    public static function inherit(?ScopeProvider $parentScope = null): Scope {}

    /** The global scope: the main flow's, and the default one (S1, S2). */
    public static function global(): Scope {}

    public function provideScope(): Scope {}

    /** Spawns $task(...$args) into this scope (S2; S3 when it is closed). */
    public function spawn(callable $task, mixed ...$args): Coroutine {}

    /**
     * Cancels every coroutine of the scope and its children, children
     * first, and closes it (S6).
     */
    public function cancel(?CancellationError $cancellationError = null): void {}

    /** Closes the scope and cancels its coroutines, warning about each (S7). */
    public function dispose(): void {}

    /** Closes the scope; its coroutines go on as zombies, with a warning (S7). */
    public function disposeSafely(): void {}

    /**
     * Closes the scope, lets its coroutines run as zombies and cancels them
     * after $timeout ms (0 < $timeout < 10 minutes, else ValueError) (S7).
     */
    public function disposeAfterTimeout(int $timeout): void {}

    /** Makes the destruction of this object dispose() instead of disposeSafely() (S8). */
    public function asNotSafely(): static {}

    /**
     * Makes the destruction of this object disposeSafely() again (the
     * default, S8): its coroutines may go on as zombies.
     */
    public function allowZombies(): static {}

    /**
     * Waits until no active coroutine is left in the scope and its children
     * (S4); throws the scope's unhandled exception, or at once when it was
     * cancelled.
     */
    public function awaitCompletion(Awaitable $cancellation): void {}

    /**
     * After cancel(): waits for every coroutine, zombies included, handing
     * their errors to $errorHandler(Throwable $error, Scope $scope) (S5).
     */
    public function awaitAfterCancellation(?callable $errorHandler = null, ?Awaitable $cancellation = null): void {}

    /**
     * $exceptionHandler(Scope $scope, Coroutine $coroutine, Throwable $e)
     * handles the unhandled exceptions of this scope's coroutines (S10, S11).
     */
    public function setExceptionHandler(callable $exceptionHandler): void {}

    /** The same for exceptions coming up from child scopes (S10, S11). */
    public function setChildScopeExceptionHandler(callable $exceptionHandler): void {}

    /** Runs $callback($scope) in a coroutine when the scope completes (S12). */
    public function onFinally(callable $callback): void {}

    /** Alias of onFinally() (docs/rules.md, "Names and aliases"). */
    public function finally(callable $callback): void {}

    /** @return array<int, Scope> */
    public function getChildScopes(): array {}

    /** @return array<int, Coroutine> */
    public function getCoroutines(): array {}

    public function getContext(): Context {}

    public function isFinished(): bool {}

    public function isClosed(): bool {}

    public function isCancelled(): bool {}
}
