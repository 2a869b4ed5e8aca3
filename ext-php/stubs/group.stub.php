<?php

/**
 * Async\TaskGroup: a scope with results (docs/rules.md, rule G1).
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * Iterating yields $key => [$result, $error] in completion order, waiting
 * for each next task, until no task is left unfinished; each error it
 * yields counts as handled.
 *
 * A task's error is a result of the group: it never leaves the group while
 * the group lives. Errors no reader handled (getErrors(), suppressErrors(),
 * iteration, or a Future of all(), race() or any() that took them) go to
 * the group's scope (rule S10) when the group is released. Releasing a
 * group is otherwise silent: tasks not started yet never start, running
 * ones finish as zombies (rule S9).
 *
 * @strict-properties
 * @not-serializable
 */
final class TaskGroup implements \IteratorAggregate, \Countable, ScopeProvider
{
    /**
     * At most $concurrency tasks run at once (null: no limit; < 1:
     * ValueError). With a limit, at most $queueLimit tasks wait for a slot:
     * spawn() suspends the caller while that many wait (null: twice the
     * concurrency; 0: no limit). The group's scope is a child of $scope
     * (null: the current scope).
     */
    public function __construct(?int $concurrency = null, ?int $queueLimit = null, ?Scope $scope = null) {}

    /** Spawns a task under the next integer key. */
    public function spawn(callable $task, mixed ...$args): Coroutine {}

    /** Spawns a task under $key (a key used before: AsyncException). */
    public function spawnWithKey(string|int $key, callable $task, mixed ...$args): Coroutine {}

    /**
     * Completes when no task is left: with [key => result] in spawn order
     * when all succeeded, else with the first error in completion order.
     * With $ignoreErrors it completes with the results of the tasks that
     * succeeded (the errors stay readable with getErrors()).
     */
    public function all(bool $ignoreErrors = false): Future {}

    /** Completes with the outcome of the first task to complete. */
    public function race(): Future {}

    /** Completes with the first success; with the first error if none succeeds. */
    public function any(): Future {}

    /** [key => result] of the tasks that succeeded so far, in spawn order. */
    public function getResults(): array {}

    /** [key => error] of the tasks that failed so far, in spawn order; they count as handled. */
    public function getErrors(): array {}

    /** Marks every error so far as handled. */
    public function suppressErrors(): void {}

    /** Refuses new tasks from now on; held and running tasks go on. */
    public function close(): void {}

    /** Closed by close(), cancel(), dispose() or its scope's cancellation. */
    public function isClosed(): bool {}

    /** No task is waiting for a slot or running (true again and again while open). */
    public function isFinished(): bool {}

    /**
     * On a closed group (else AsyncException): waits until every task has
     * finished, the coroutines they spawned into the group too, and the
     * finally handlers have run. Never throws a task's error.
     */
    public function awaitCompletion(?Awaitable $cancellation = null): void {}

    /**
     * $callback($taskGroup) runs in a coroutine of its own once the group is
     * closed and everything in it has finished (at once if it has already).
     */
    public function finally(\Closure $callback): void {}

    /** Alias of finally() (docs/rules.md, "Names and aliases"). */
    public function onFinally(\Closure $callback): void {}

    public function getIterator(): \Iterator {}

    /** Closes the group and cancels every task (the group's scope). */
    public function cancel(?CancellationError $cancellationError = null): void {}

    /** Closes the group and cancels its tasks (Scope::dispose() of its scope). */
    public function dispose(): void {}

    public function getScope(): Scope {}

    public function provideScope(): Scope {}

    /** The number of tasks spawned. */
    public function count(): int {}
}
