<?php

/**
 * Async\Pool (docs/rules.md, rule T3): reusable resources lent to
 * coroutines, over the core's pools (pool.h), with a circuit breaker.
 * PoolException and ServiceUnavailableException are declared with the
 * other exceptions.
 *
 * @generate-class-entries
 */

namespace Async;

/** The states of a circuit breaker. */
enum CircuitBreakerState
{
    /** The service works: acquiring is allowed. */
    case ACTIVE;
    /** The service is down: acquiring fails at once. */
    case INACTIVE;
    /** Probing whether the service is back: acquiring is allowed. */
    case RECOVERING;
}

/** How a circuit breaker moves between its states. */
interface CircuitBreaker
{
    public function getState(): CircuitBreakerState;

    public function activate(): void;

    public function deactivate(): void;

    public function recover(): void;
}

/**
 * When a circuit breaker moves: it hears of successes and failures and is
 * asked, while INACTIVE, whether to try again.
 */
interface CircuitBreakerStrategy
{
    /** A resource came back healthy ($source: the Pool). */
    public function reportSuccess(mixed $source): void;

    /**
     * A resource failed: the factory threw, beforeRelease or the
     * healthcheck refused it ($source: the Pool).
     */
    public function reportFailure(mixed $source, \Throwable $error): void;

    /** Asked while INACTIVE when a coroutine acquires: true moves to RECOVERING. */
    public function shouldRecover(): bool;
}

/**
 * At most $max resources at once, made by $factory in the coroutine that
 * needs one, lent fairly: coroutines waiting to acquire are served in the
 * order they began to wait, and a resource that comes back is reserved for
 * the first of them. A resource held by a coroutine that ends without
 * releasing it comes back by itself (its beforeRelease check runs in whoever
 * takes it next). $destructor runs for each resource the pool gives up; the
 * periodic healthcheck (every $healthcheckInterval ms) never keeps the
 * program alive on its own.
 *
 * @strict-properties
 * @not-serializable
 */
final class Pool implements \Countable, CircuitBreaker
{
    /**
     * $factory(): mixed makes a resource; $destructor($resource) gives one
     * up; $healthcheck($resource): bool checks an idle one periodically;
     * $beforeAcquire($resource): bool / $beforeRelease($resource): bool
     * decide whether it is lent / kept (false: destroyed). $min resources
     * are made now.
     */
    public function __construct(
        callable $factory,
        ?callable $destructor = null,
        ?callable $healthcheck = null,
        ?callable $beforeAcquire = null,
        ?callable $beforeRelease = null,
        int $min = 0,
        int $max = 10,
        int $healthcheckInterval = 0,
    ) {}

    /**
     * An idle resource, else a new one while fewer than max exist, else
     * waits for one ($timeout ms, 0: no limit). Throws PoolException when
     * the pool is closed, ServiceUnavailableException while the breaker is
     * INACTIVE, TimeoutException after $timeout, the factory's exception.
     */
    public function acquire(int $timeout = 0): mixed {}

    /** An idle resource, or null at once (never waits, never creates). */
    public function tryAcquire(): mixed {}

    /**
     * Gives $resource back: kept (and handed to the first waiting
     * coroutine) unless beforeRelease refuses it.
     */
    public function release(mixed $resource): void {}

    /**
     * Closes the pool: waiting coroutines fail with PoolException, idle
     * resources are destroyed, lent ones when they come back.
     */
    public function close(): void {}

    public function isClosed(): bool {}

    /** Resources that exist: idle and lent. */
    public function count(): int {}

    /** Resources ready to lend. */
    public function idleCount(): int {}

    /** Resources lent (or being made or checked). */
    public function activeCount(): int {}

    /** The strategy that moves the breaker (null: none, manual only). */
    public function setCircuitBreakerStrategy(?CircuitBreakerStrategy $strategy): void {}

    public function getState(): CircuitBreakerState {}

    public function activate(): void {}

    /** INACTIVE: coroutines waiting to acquire fail too. */
    public function deactivate(): void {}

    public function recover(): void {}
}
