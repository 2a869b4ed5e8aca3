/*
 * tasync/await_many.h - awaiting many awaitables at once (docs/rules.md,
 * rule G2): the one primitive behind the await_all / await_any /
 * first-success / any-of-N combinators of every host, and behind the
 * all() / race() / any() awaitables of task groups (group.h).
 *
 * A set is created with a mode, then fed its items one at a time with
 * tasync_await_many_add(), in the order the host's collection produces them
 * (an array, an iterator, a generator that suspends between items). Each
 * item is subscribed to at once: when it completes, the set records it, in
 * completion order, whether or not a coroutine is waiting yet. From the
 * moment it is added until the set's outcome is decided (or the set is
 * destroyed), an item counts as awaited for rule S10: its error is handed to
 * the set's caller instead of flowing up its scope. A host that stops
 * feeding midway (its iterator threw) destroys the set: every subscription
 * goes with it, nothing is left behind.
 *
 * The outcome is decided by the mode:
 *   ALL             every item completed (never fails).
 *   ALL_OR_FAIL     every item succeeded; or the first failure, at once.
 *   ANY_OR_FAIL     the first item to complete: its success or its failure.
 *   FIRST_SUCCESS   the first success; failures before it are recorded;
 *                   fails with the first failure when every item failed.
 *   ANY_OF          `count` successes; or every item completed (never fails).
 *   ANY_OF_OR_FAIL  `count` successes; or the first failure, at once; or
 *                   every item completed (count exceeds the successes).
 * Conditions that need "every item" hold only once the set is sealed (by
 * tasync_await_many_seal or tasync_await_many_wait): until then more items
 * may come. Conditions that need "some items" (a success, a failure, count
 * successes) decide as soon as they hold, even while items are still fed;
 * later items are then recorded as not taken. Items that completed before
 * they were added count in the order they were added.
 *
 * The result is read per item with tasync_await_many_entry(): in feed order
 * (a host maps each index to its own key: results in input order, missing
 * slots filled) or in completion order (the order the outcome was built
 * in). Only the items that completed before the decision are taken.
 *
 * A set is used on its runtime's thread by one owner; it is not
 * thread-safe. Since: ABI 1.2 (the whole header).
 */
#ifndef TASYNC_AWAIT_MANY_H
#define TASYNC_AWAIT_MANY_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_await_many tasync_await_many_t;

/* The modes described above. Values never change. Since: ABI 1.2. */
typedef enum tasync_await_many_mode {
    TASYNC_AWAIT_ALL = 1,
    TASYNC_AWAIT_ALL_OR_FAIL = 2,
    TASYNC_AWAIT_ANY_OR_FAIL = 3,
    TASYNC_AWAIT_FIRST_SUCCESS = 4,
    TASYNC_AWAIT_ANY_OF = 5,
    TASYNC_AWAIT_ANY_OF_OR_FAIL = 6
} tasync_await_many_mode_t;

/* Since: ABI 1.2. */
typedef struct tasync_await_many_options {
    uint32_t size;   /* sizeof(tasync_await_many_options_t) */
    uint32_t mode;   /* tasync_await_many_mode_t */
    /* ANY_OF modes: how many successes decide (0: decided at once, with
     * nothing taken). Ignored by the other modes. */
    uint64_t count;
} tasync_await_many_options_t;

/* Item states in tasync_await_many_entry_t.state. Since: ABI 1.2. */
typedef enum tasync_await_many_item_state {
    /* Not taken: it had not completed when the outcome was decided (or the
     * outcome is not decided yet). */
    TASYNC_AWAIT_ITEM_PENDING = 1,
    TASYNC_AWAIT_ITEM_SUCCEEDED = 2, /* taken: value is its result */
    TASYNC_AWAIT_ITEM_FAILED = 3     /* taken: error is its error */
} tasync_await_many_item_state_t;

/* Since: ABI 1.2. */
typedef struct tasync_await_many_entry {
    uint32_t size;                 /* set by the caller to sizeof(tasync_await_many_entry_t) */
    uint32_t state;                /* tasync_await_many_item_state_t */
    uint64_t index;                /* position in feed order, from 0 */
    tasync_awaitable_t *awaitable; /* the item, borrowed */
    void *value;                   /* SUCCEEDED: its value, borrowed (may be NULL) */
    void *error;                   /* FAILED: its error, borrowed */
} tasync_await_many_entry_t;

/*
 * Creates an empty set. *out receives it (the caller owns it and destroys
 * it with tasync_await_many_destroy). Returns 0, or -EINVAL for a bad mode
 * or options. Since: ABI 1.2.
 */
TASYNC_API int tasync_await_many_create(tasync_runtime_t *rt, const tasync_await_many_options_t *opts,
                                        tasync_await_many_t **out);

/*
 * Destroys the set: every item still subscribed is unsubscribed (a failure
 * of it flows on by rule S10 from then on) and the references the set held
 * are dropped; values and errors read from entries are no longer valid.
 * Must not be called while a coroutine waits on the set. NULL is a no-op.
 * Since: ABI 1.2.
 */
TASYNC_API void tasync_await_many_destroy(tasync_await_many_t *set);

/*
 * Feeds one item (borrowed; the set keeps its own reference until it is
 * destroyed). Its index is the number of items added before it. An item
 * may be added more than once; each addition is an item of its own.
 * Returns 0; TASYNC_EBAD_STATE when the set is sealed or what belongs to a
 * runtime that is gone; TASYNC_EWRONG_THREAD for another thread's
 * awaitable; -EINVAL for NULL. Since: ABI 1.2.
 */
TASYNC_API int tasync_await_many_add(tasync_await_many_t *set, tasync_awaitable_t *what);

/* No more items: conditions over every item may now decide. Idempotent.
 * Since: ABI 1.2. */
TASYNC_API void tasync_await_many_seal(tasync_await_many_t *set);

/* Nonzero once the outcome is decided (a host may stop consuming its
 * collection then). Since: ABI 1.2. */
TASYNC_API int tasync_await_many_is_decided(const tasync_await_many_t *set);

/*
 * From a coroutine: seals the set and waits until its outcome is decided.
 * Returns 0 when it is a success; TASYNC_EFAILED with the deciding error in
 * *out_error (the first failure of an *_OR_FAIL mode, the failure that won
 * ANY_OR_FAIL, the first failure when FIRST_SUCCESS found none); -EINVAL
 * for ANY_OR_FAIL or FIRST_SUCCESS without any item (they would wait
 * forever); TASYNC_ESELF_AWAIT when the caller is one of the items (C6);
 * TASYNC_EAWAIT_CANCELLED when cancellation (may be NULL) completed first
 * (C5); -ECANCELED when the caller was cancelled. After a cancelled wait the
 * set is unchanged and may be waited for again. *out_error as in runtime.h.
 * Since: ABI 1.2.
 */
TASYNC_API int tasync_await_many_wait(tasync_runtime_t *rt, tasync_await_many_t *set,
                                      tasync_awaitable_t *cancellation, void **out_error);

/*
 * The set as an awaitable (borrowed, lives as long as the set): it completes
 * when the outcome is decided, with the value of the item that decided
 * ANY_OR_FAIL or FIRST_SUCCESS (else NULL) and the error
 * tasync_await_many_wait would return. Since: ABI 1.2.
 */
TASYNC_API tasync_awaitable_t *tasync_await_many_awaitable(tasync_await_many_t *set);

/* Items added so far. Since: ABI 1.2. */
TASYNC_API size_t tasync_await_many_count(const tasync_await_many_t *set);
/* How many items were taken: completed before the decision, or so far
 * while undecided. Since: ABI 1.2. */
TASYNC_API size_t tasync_await_many_taken_count(const tasync_await_many_t *set);

/*
 * Reads item i: in feed order when by_completion is 0 (i < count), else the
 * i-th item taken (i < taken count). Returns 0, or -ERANGE, or -EINVAL
 * (out->size too small). Pointers are borrowed from the set.
 * Since: ABI 1.2.
 */
TASYNC_API int tasync_await_many_entry(const tasync_await_many_t *set, size_t i, int by_completion,
                                       tasync_await_many_entry_t *out);

TASYNC_EXTERN_C_END

#endif /* TASYNC_AWAIT_MANY_H */
