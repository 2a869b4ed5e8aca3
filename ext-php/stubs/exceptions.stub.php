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
