<?php

/**
 * Async\Coroutine: created by spawn(), never by users (rules C1-C17).
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * @strict-properties
 * @not-serializable
 */
final class Coroutine implements FutureLike
{
    private function __construct() {}

    public function getId(): int {}

    /**
     * Makes the coroutine high priority and returns it: queued, it runs
     * ahead of the coroutines queued before it, now and whenever it is
     * woken from a wait (a suspend() still lets the others run first).
     */
    public function asHiPriority(): Coroutine {}

    /** The result once completed successfully, else null. */
    public function getResult(): mixed {}

    /** The exception it completed with (a CancellationError when cancelled), else null. */
    public function getException(): ?\Throwable {}

    public function cancel(?CancellationError $cancellation = null): void {}

    public function isStarted(): bool {}

    public function isQueued(): bool {}

    public function isRunning(): bool {}

    public function isSuspended(): bool {}

    public function isCancelled(): bool {}

    public function isCancellationRequested(): bool {}

    public function isCompleted(): bool {}

    /** @return array{0: string, 1: int} */
    public function getSpawnFileAndLine(): array {}

    public function getSpawnLocation(): string {}

    /** @return array{0: string, 1: int} */
    public function getSuspendFileAndLine(): array {}

    public function getSuspendLocation(): string {}

    /** What a suspended coroutine waits for; [] when it waits for nothing. */
    public function getAwaitingInfo(): array {}

    /**
     * Runs $callback($coroutine) in a coroutine of its own once this one has
     * completed, before any awaiter of it resumes; at once (queued) if it
     * already has (rule C11).
     */
    public function onFinally(callable $callback): void {}

    /** Alias of onFinally() (docs/rules.md, "Names and aliases"). */
    public function finally(callable $callback): void {}

    /**
     * Its private context (rule X2, what coroutineContext() returns inside
     * it); empty and without a parent once it has completed.
     */
    public function getContext(): Context {}

    /** The scope it runs in; null once it has completed. */
    public function getScope(): ?Scope {}

    /** The PHP stack of a suspended (or the running) coroutine; [] otherwise. */
    public function getTrace(int $options = DEBUG_BACKTRACE_PROVIDE_OBJECT, int $limit = 0): array {}
}
