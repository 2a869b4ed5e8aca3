<?php

/**
 * Async\Channel (docs/rules.md, rule T1): values passed between coroutines
 * in order, over the core's channels (channel.h). ChannelException and
 * ChannelCloseReason are declared with the other exceptions.
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * A rendezvous (capacity 0: send() returns once a receiver took the value)
 * or a FIFO buffer of $capacity values (send() waits while it is full).
 * Waiting senders, and waiting receivers, are served in the order they
 * began to wait, and what is handed to a waiter is reserved for it. A
 * send() or recv() ended by a cancellation leaves the channel as if it had
 * not been tried. Iterating receives until the channel is closed and empty.
 *
 * @strict-properties
 * @not-serializable
 */
final class Channel implements Awaitable, \IteratorAggregate, \Countable
{
    /**
     * $noProducerTimeout / $noConsumerTimeout (ms, 0: never) close the
     * channel (ChannelCloseReason::NO_PRODUCERS / NO_CONSUMERS) when
     * receivers / senders have waited that long for a counterpart. Their
     * timers keep the program alive only with $hardTimeouts; otherwise a
     * program whose coroutines all wait on the channel meets the deadlock
     * report (rule C14) first, which names the channel.
     */
    public function __construct(
        int $capacity = 0,
        int $noProducerTimeout = 0,
        int $noConsumerTimeout = 0,
        bool $hardTimeouts = false,
    ) {}

    /**
     * Sends $value: returns once a receiver took it or it is in the buffer.
     * Throws ChannelException when the channel is or becomes closed (the
     * value was not delivered), AwaitCancelledException when
     * $cancellationToken completes first.
     */
    public function send(mixed $value, ?Awaitable $cancellationToken = null): void {}

    /**
     * Sends without waiting: true when a waiting receiver took $value, the
     * buffer had room, or (capacity 0) nobody else waits to send, $value
     * then waiting for the next receiver; false otherwise (full, closed).
     */
    public function sendAsync(mixed $value): bool {}

    /**
     * The next value: buffered, else a waiting sender's, else the next one
     * sent. Throws ChannelException once the channel is closed and empty,
     * AwaitCancelledException when $cancellationToken completes first.
     */
    public function recv(?Awaitable $cancellationToken = null): mixed {}

    /**
     * A Future of the next value, waiting in line with the receiving
     * coroutines; cancel() withdraws it.
     */
    public function recvAsync(): Future {}

    /**
     * Closes the channel: waiting and later senders fail at once, receivers
     * take what is buffered, then fail. Closing again does nothing.
     */
    public function close(): void {}

    public function isClosed(): bool {}

    public function capacity(): int {}

    /**
     * The values it holds: buffered ones (capacity 0: 1 while a sender's
     * value waits for a receiver, else 0).
     */
    public function count(): int {}

    /** count() === 0. */
    public function isEmpty(): bool {}

    /** count() has reached capacity() (capacity 0: a value waits). */
    public function isFull(): bool {}

    public function getIterator(): \Iterator {}
}
