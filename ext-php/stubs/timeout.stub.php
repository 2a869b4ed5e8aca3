<?php

/** @generate-class-entries */

namespace Async;

/**
 * A FutureLike that completes, with null, $ms milliseconds after it was
 * created (rule C21); Async\timeout($ms) returns one. Cancelled before it
 * fired, it never fires: await() of it throws the cancellation, and a wait
 * that uses it as its $cancellation goes on without one.
 *
 * @strict-properties
 * @not-serializable
 */
final class Timeout implements FutureLike
{
    public function __construct(int $ms) {}

    /** Stops the timeout if it has not fired (nothing otherwise). */
    public function cancel(?CancellationError $cancellation = null): void {}

    /** It fired, or was cancelled. */
    public function isCompleted(): bool {}

    /** It was cancelled before it fired. */
    public function isCancelled(): bool {}
}
