<?php

/**
 * Async\Context: key/value slots tied to a scope or a coroutine
 * (docs/rules.md, rules X1 and X2).
 *
 * @generate-class-entries
 */

namespace Async;

/**
 * Keys are strings, or objects compared by identity (only holders of the
 * object can reach its slot); any other key is a TypeError. find() and
 * findLocal() dereference a stored WeakReference; get() and getLocal()
 * return what was stored. A missing key reads as null.
 *
 * @strict-properties
 * @not-serializable
 */
final class Context
{
    /**
     * A free-standing context: no parent, so find() and get() see only
     * its own keys; its values live as long as the object.
     */
    public function __construct() {}

    /** Looks in this context, then its parents. */
    public function find(string|object $key): mixed {}

    /** Looks in this context, then its parents. */
    public function get(string|object $key): mixed {}

    /** Looks in this context, then its parents. */
    public function has(string|object $key): bool {}

    public function findLocal(string|object $key): mixed {}

    public function getLocal(string|object $key): mixed {}

    public function hasLocal(string|object $key): bool {}

    /**
     * Stores $value under $key in this context; a key already set here
     * throws AsyncException unless $replace is true.
     */
    public function set(string|object $key, mixed $value, bool $replace = false): static {}

    public function unset(string|object $key): static {}
}
