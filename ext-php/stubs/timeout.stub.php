<?php

/** @generate-class-entries */

namespace Async;

/**
 * An Awaitable that completes $ms milliseconds after it was created
 * (rule C21); Async\timeout($ms) returns one.
 *
 * @strict-properties
 * @not-serializable
 */
final class Timeout implements Awaitable
{
    public function __construct(int $ms) {}

    public function isCompleted(): bool {}
}
