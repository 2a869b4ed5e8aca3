<?php

/**
 * Async\TaskGroup: a scope with results (DESIGN.md 5.4, rule G1).
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * Iterating yields $key => [$result, $error] in completion order, waiting
 * for each next task.
 *
 * @strict-properties
 * @not-serializable
 */
final class TaskGroup implements \IteratorAggregate, \Countable, ScopeProvider
{
    /** At most $concurrency tasks run at once (null: no limit; < 1: ValueError). */
    public function __construct(?int $concurrency = null) {}

    /** Spawns a task under the next integer key. */
    public function spawn(callable $task, mixed ...$args): Coroutine {}

    /** Spawns a task under $key (a key used before: AsyncException). */
    public function spawnWithKey(string|int $key, callable $task, mixed ...$args): Coroutine {}

    /**
     * Completes when no task is left: with [key => result] in spawn order
     * when all succeeded, else with the first error in completion order.
     */
    public function all(): Future {}

    /** Completes with the outcome of the first task to complete. */
    public function race(): Future {}

    /** Completes with the first success; with the first error if none succeeds. */
    public function any(): Future {}

    public function getIterator(): \Iterator {}

    /** Cancels every task (the group's scope). */
    public function cancel(?CancellationError $cancellationError = null): void {}

    /** Closes the group and cancels its tasks (Scope::dispose() of its scope). */
    public function dispose(): void {}

    public function getScope(): Scope {}

    public function provideScope(): Scope {}

    /** The number of tasks spawned. */
    public function count(): int {}
}
