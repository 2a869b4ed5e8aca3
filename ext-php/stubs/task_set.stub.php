<?php

/**
 * Async\TaskSet: a TaskGroup consumed as its results arrive (docs/php.md):
 * each result is delivered once, by joinNext(), joinAny(), joinAll() or
 * iteration, and leaves the set then.
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * The tasks run in a scope of the set's own, a child of $scope (null: the
 * current scope), with the concurrency and queue limits of TaskGroup.
 * count() is the number of tasks whose result was not delivered yet. When
 * several results are ready, the one of the task spawned first is
 * delivered first; otherwise the next task to complete. The errors the set
 * never delivered go to the scope it was made in when it goes (rule S10).
 *
 * @strict-properties
 * @not-serializable
 */
final class TaskSet implements Awaitable, \Countable, \IteratorAggregate
{
    public function __construct(?int $concurrency = null, ?int $queueLimit = null, ?Scope $scope = null) {}

    /** Spawns a task under the next integer key. */
    public function spawn(callable $task, mixed ...$args): Coroutine {}

    /** Spawns a task under $key (a key used before: AsyncException). */
    public function spawnWithKey(string|int $key, callable $task, mixed ...$args): Coroutine {}

    /**
     * A Future of the next result (value or error) to be delivered; the
     * task leaves the set when it completes the Future. AsyncException on
     * an empty set.
     */
    public function joinNext(): Future {}

    /**
     * A Future of the next successful result (errors stay in the set);
     * when every task in the set has failed, it fails with a
     * CompositeException of their errors, which leave the set.
     * AsyncException on an empty set.
     */
    public function joinAny(): Future {}

    /**
     * A Future of [key => result] of every task in the set, in spawn order,
     * once none is running or waiting for a slot; with errors (unless
     * $ignoreErrors) it fails with a CompositeException of them. Every task
     * delivered leaves the set.
     */
    public function joinAll(bool $ignoreErrors = false): Future {}

    /** Closes the set and cancels every task (the set's scope). */
    public function cancel(?CancellationError $cancellation = null): void {}

    /** Refuses new tasks from now on; held and running tasks go on. */
    public function close(): void {}

    /** Closes the set and cancels its tasks (Scope::dispose() of its scope). */
    public function dispose(): void {}

    /** No task is waiting for a slot or running. */
    public function isFinished(): bool {}

    public function isClosed(): bool {}

    /** The tasks whose result was not delivered yet. */
    public function count(): int {}

    /**
     * On a closed set: waits until every task has finished and the finally
     * handlers have run. Never throws a task's error.
     */
    public function awaitCompletion(?Awaitable $cancellation = null): void {}

    /**
     * $callback($taskSet) runs in a coroutine of its own once the set is
     * closed and everything in it has finished.
     */
    public function finally(\Closure $callback): void {}

    /**
     * $key => [$result, $error] of each task as it completes (the first in
     * spawn order among those ready), each one leaving the set; while the
     * set is open it waits for tasks spawned later, and it ends once the
     * set is closed and every result was delivered.
     */
    public function getIterator(): \Iterator {}
}
