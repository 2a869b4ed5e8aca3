<?php

/** @generate-class-entries */

namespace Async;

/** Misuse of the API, such as a coroutine awaiting itself (rule C6). */
class AsyncException extends \Exception {}

/**
 * Cancellation of a coroutine (rule C7). Extends \Error, not \Exception,
 * so that catch (\Exception) does not swallow it (rule C9).
 *
 * @alias Async\AsyncCancellation
 */
class CancellationError extends \Error {}

/**
 * Thrown by await() when its cancellation awaitable completes first (C5).
 *
 * @alias Async\OperationCanceledException
 */
class AwaitCancelledException extends CancellationError {}

/** Nothing can make progress while coroutines still wait (rule C14). */
class DeadlockError extends \Error {}

/**
 * A wait's own deadline expired (Pool::acquire($timeout), a channel's
 * timeout). Not an AsyncException: the thing waited for is healthy, only
 * busy.
 */
class TimeoutException extends \Exception {}

/** Why a channel was closed (ChannelException::$reason, rule T1). */
enum ChannelCloseReason: string
{
    case EXPLICIT = 'explicit';
    case DISPOSED = 'disposed';
    case NO_PRODUCERS = 'no producers timeout';
    case NO_CONSUMERS = 'no consumers timeout';
    case DEADLOCK = 'deadlock';
    case SCOPE_DISPOSED = 'scope disposed';
}

/**
 * Sending to a closed channel, or receiving from a closed and empty one
 * (rule T1); $reason says why it was closed.
 */
class ChannelException extends AsyncException
{
    public ChannelCloseReason $reason;
}

/** The pool is closed, or could not make a resource (rule T3). */
class PoolException extends AsyncException {}

/**
 * Acquiring from a pool whose circuit breaker is INACTIVE (rule T3).
 */
class ServiceUnavailableException extends AsyncException {}

/**
 * Several failures at once (a TaskSet's joinAll() or joinAny() when more
 * than one task failed); getExceptions() lists them in the order they
 * happened.
 *
 * @strict-properties
 */
final class CompositeException extends \Exception
{
    private array $exceptions = [];

    /** Appends $exception to the list. */
    public function addException(\Throwable $exception): void {}

    /** @return array<int, \Throwable> */
    public function getExceptions(): array {}
}
