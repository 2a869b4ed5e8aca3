<?php

/**
 * Async\Future: a read-only FutureLike the runtime completes (the
 * awaitables of TaskGroup::all(), race() and any()).
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * @strict-properties
 * @not-serializable
 */
final class Future implements FutureLike
{
    private function __construct() {}

    /** Cancels the work that produces it (the tasks of its TaskGroup). */
    public function cancel(?CancellationError $cancellationError = null): void {}

    public function isCompleted(): bool {}

    /** Completed with a CancellationError. */
    public function isCancelled(): bool {}
}
