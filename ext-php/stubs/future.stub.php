<?php

/**
 * Async\FutureState and Async\Future (docs/rules.md, rule T2): a value one
 * coroutine completes and any number await, over the core's futures
 * (future.h). Also the Future the runtime returns: TaskGroup::all(),
 * race() and any(), Channel::recvAsync(), a TaskSet's joins, signal().
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * The writing side of a Future: complete() or error() once. A second
 * completion throws AsyncException naming where the first one happened.
 *
 * @strict-properties
 * @not-serializable
 */
final class FutureState
{
    public function __construct() {}

    /** Completes the future with $result. */
    public function complete(mixed $result): void {}

    /** Completes the future with $throwable. */
    public function error(\Throwable $throwable): void {}

    public function isCompleted(): bool {}

    /**
     * Its failure needs no awaiter: it is not reported as unobserved
     * (rule T2), even when it comes later.
     */
    public function ignore(): void {}

    /** @return array<int, Coroutine> the coroutines awaiting the future now */
    public function getAwaitingInfo(): array {}

    /** @return array{0: ?string, 1: int} where the state was created */
    public function getCreatedFileAndLine(): array {}

    /** "file:line" where the state was created, or "unknown". */
    public function getCreatedLocation(): string {}

    /** @return array{0: ?string, 1: int} where it was completed ([null, 0] before) */
    public function getCompletedFileAndLine(): array {}

    /** "file:line" where it was completed, or "unknown". */
    public function getCompletedLocation(): string {}
}

/**
 * The reading side: await it, derive futures from it. A failure nobody
 * awaited, derived from or ignored is reported when the last reference to
 * the future goes, or at the end of the program, as a coroutine failing
 * unobserved in the scope where it was created (rules T2, S10).
 *
 * @strict-properties
 * @not-serializable
 */
final class Future implements FutureLike
{
    /** A future completed with $value. */
    public static function completed(mixed $value = null): Future {}

    /** A future failed with $throwable. */
    public static function failed(\Throwable $throwable): Future {}

    /** The future $state completes. */
    public function __construct(FutureState $state) {}

    public function isCompleted(): bool {}

    /** Completed with a CancellationError. */
    public function isCancelled(): bool {}

    /**
     * Cancels it: a pending future completes with $cancellation (a new
     * CancellationError when null), and what produces it stops (the tasks
     * of a TaskGroup's future, a channel's pending receive, a signal's
     * wait). A completed future stays as it is.
     */
    public function cancel(?CancellationError $cancellation = null): void {}

    /** Its failure is not reported as unobserved (rule T2). Returns $this. */
    public function ignore(): Future {}

    /**
     * A future of $map($value) once this one succeeds, in a coroutine of
     * its own; a failure passes on without calling it.
     */
    public function map(callable $map): Future {}

    /**
     * A future of $catch($error) once this one fails, in a coroutine of its
     * own; a value passes on without calling it.
     */
    public function catch(callable $catch): Future {}

    /**
     * A future of this one's outcome once $finally($valueOrError) has run
     * in a coroutine of its own; the callback's exception replaces it.
     */
    public function finally(callable $finally): Future {}

    /** await($this, $cancellation). */
    public function await(?Awaitable $cancellation = null): mixed {}

    /** @return array<int, Coroutine> the coroutines awaiting the future now */
    public function getAwaitingInfo(): array {}

    /** @return array{0: ?string, 1: int} where the future was created */
    public function getCreatedFileAndLine(): array {}

    /** "file:line" where the future was created, or "unknown". */
    public function getCreatedLocation(): string {}

    /** @return array{0: ?string, 1: int} where it was completed ([null, 0] before) */
    public function getCompletedFileAndLine(): array {}

    /** "file:line" where it was completed, or "unknown". */
    public function getCompletedLocation(): string {}
}
