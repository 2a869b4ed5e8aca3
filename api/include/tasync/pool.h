/*
 * tasync/pool.h - resource pools (docs/rules.md, rule T3): a bounded set of
 * reusable resources (connections, clients, handles) lent to coroutines.
 *
 * Resources are the host's values (host.h), made by the host's create
 * callback; the pool holds one reference to each resource it owns and gives
 * it up with the destroy callback followed by a release. A pool never holds
 * more than max resources at once (idle, lent, being created or checked):
 * tasync_pool_acquire takes an idle one, creates one while fewer than max
 * exist, and otherwise waits.
 *
 * Fairness and reservation. Coroutines waiting to acquire are served in the
 * order they began to wait. A resource that comes back while coroutines
 * wait is handed to the first of them at once (the pool does not take it
 * back), and the place a destroyed resource frees is reserved for the first
 * waiter, which creates a resource in it: a coroutine that acquires and
 * releases in a loop cannot overtake the waiters. A waiter whose wait ends
 * otherwise (cancelled, its cancellation awaitable, its timeout) gave up
 * its place and got nothing; one that was handed a resource before that
 * keeps it (as a channel's receiver keeps a value, channel.h), a
 * cancellation of its coroutine being delivered at its next suspension.
 *
 * Callbacks (tasync_pool_callbacks_t) run in the coroutine whose call needs
 * them and may suspend there (a connect, a ping): create in the acquiring
 * coroutine (or the one in tasync_pool_fill / tasync_pool_check),
 * before_acquire in the acquiring one, before_release in the releasing one,
 * healthcheck in the checking one. destroy must not suspend: it may run
 * outside any coroutine (tasync_pool_close from a callback, the last
 * reference going, a resource coming back to a closed pool). The pool is
 * consistent whenever a callback runs; another coroutine may use it while
 * one suspends.
 *
 * Health. With healthcheck_interval_ns, a timer of the pool asks for a check
 * pass at that interval while the pool is open; the timer never keeps the
 * runtime alive on its own. A pass (tasync_pool_check) checks the resources
 * idle when it begins, destroys those the healthcheck refuses, and creates
 * resources until min exist. The host starts the pass in a coroutine of
 * its own (callbacks->check_due); without that member, the core spawns a
 * coroutine of its own for it.
 *
 * Resources whose coroutine ended. A resource is lent to the coroutine that
 * acquired it. When that coroutine completes without releasing it, the
 * resource comes back to the pool as if released, except that its
 * before_release check (there is no coroutine to run it in then) runs in
 * the coroutine that takes it next (an acquirer, a check pass) before
 * anything else; a closed pool destroys it. tasync_pool_transfer hands a
 * lent resource to another coroutine (or to nobody: the host answers for
 * it) when it moves between coroutines.
 *
 * Circuit breaker. A pool is ACTIVE, INACTIVE or RECOVERING
 * (tasync_pool_set_state; PHP: activate, deactivate, recover). While
 * INACTIVE, acquiring fails at once with TASYNC_ESERVICE_UNAVAILABLE (a
 * TASYNC_ERROR_SERVICE_UNAVAILABLE error), unless the strategy's
 * should_recover says yes, which moves the pool to RECOVERING first;
 * deactivating fails the coroutines waiting to acquire the same way.
 * RECOVERING lends as ACTIVE does: the strategy decides, from the reports,
 * when to activate or deactivate again. A strategy (tasync_pool_breaker_t)
 * hears of successes (a resource released without an error and kept) and
 * failures (create failed, a resource released with an error, refused by
 * before_release or by the healthcheck).
 *
 * Closing (tasync_pool_close, or the last reference going): waiting
 * coroutines fail with TASYNC_EPOOL_CLOSED, idle resources are destroyed,
 * lent ones are destroyed when they come back. Runtime teardown releases
 * every resource reference the pool holds without calling destroy (no host
 * code runs while the runtime goes).
 *
 * Introspection: a coroutine waiting to acquire reports TASYNC_WAIT_POOL
 * with the pool in tasync_wait_info_t.pool; the deadlock report names the
 * pool and where it was created.
 *
 * A pool belongs to the runtime of the thread that created it and is used
 * on that thread only. Since: ABI 1.3 (the whole header).
 */
#ifndef TASYNC_POOL_H
#define TASYNC_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_pool tasync_pool_t;

/* Circuit breaker states. Values never change. Since: ABI 1.3. */
typedef enum tasync_pool_state {
    TASYNC_POOL_ACTIVE = 1,     /* the service works: acquiring is allowed */
    TASYNC_POOL_INACTIVE = 2,   /* the service is down: acquiring fails at once */
    TASYNC_POOL_RECOVERING = 3  /* probing whether the service is back: allowed */
} tasync_pool_state_t;

/* The host's side of a pool. Since: ABI 1.3. */
typedef struct tasync_pool_callbacks {
    uint32_t size;      /* sizeof(tasync_pool_callbacks_t) */
    uint32_t reserved0;
    void *data;         /* passed to every member */
    /* Required. Makes a resource: returns 0 and a new reference in
     * *out_resource (not NULL), or a negative code and an error (a new
     * reference; NULL lets the core make one) in *out_error. May suspend. */
    int (*create)(void *data, tasync_pool_t *pool, void **out_resource, void **out_error);
    /* Gives a resource up (the pool releases its reference right after).
     * Must not suspend. NULL: only the release. */
    void (*destroy)(void *data, tasync_pool_t *pool, void *resource);
    /* The periodic check: nonzero while resource is usable. May suspend.
     * NULL: every resource is healthy. */
    int (*healthcheck)(void *data, tasync_pool_t *pool, void *resource);
    /* Before a resource is lent: nonzero to lend it, 0 to destroy it and
     * go on with another. May suspend. NULL: always lent. */
    int (*before_acquire)(void *data, tasync_pool_t *pool, void *resource);
    /* When a resource comes back: nonzero to keep it, 0 to destroy it. May
     * suspend. NULL: always kept. */
    int (*before_release)(void *data, tasync_pool_t *pool, void *resource);
    /* A check pass is due (the periodic timer, outside any coroutine; must
     * not suspend): the host starts a coroutine that calls tasync_pool_check.
     * NULL: the core spawns one of its own (in the global scope). */
    void (*check_due)(void *data, tasync_pool_t *pool);
    /* Called once when the pool is freed. May be NULL. */
    void (*release_data)(void *data);
} tasync_pool_callbacks_t;

/* Since: ABI 1.3. */
typedef struct tasync_pool_options {
    uint32_t size;    /* sizeof(tasync_pool_options_t) */
    uint32_t flags;   /* reserved, 0 */
    uint32_t min;     /* resources tasync_pool_fill and check passes create */
    uint32_t max;     /* most resources at once; at least 1 and at least min */
    uint64_t healthcheck_interval_ns;  /* 0: no periodic check */
    /* Where the pool was created; file NULL: asked from the host. */
    tasync_location_t location;
} tasync_pool_options_t;

/* A circuit breaker strategy (tasync_pool_set_breaker). The members run in
 * the coroutine whose call reports (or acquires, should_recover) and may
 * call tasync_pool_set_state. Since: ABI 1.3. */
typedef struct tasync_pool_breaker {
    uint32_t size;      /* sizeof(tasync_pool_breaker_t) */
    uint32_t reserved0;
    void *data;
    void (*report_success)(void *data, tasync_pool_t *pool);
    /* error is borrowed: why the resource failed. */
    void (*report_failure)(void *data, tasync_pool_t *pool, void *error);
    /* Asked while INACTIVE when a coroutine acquires: nonzero moves the pool
     * to RECOVERING and lets it acquire. NULL: never. */
    int (*should_recover)(void *data, tasync_pool_t *pool);
    /* Called once when the strategy is replaced or the pool freed. */
    void (*release_data)(void *data);
} tasync_pool_breaker_t;

/* What tasync_pool_info reports. Since: ABI 1.3. */
typedef struct tasync_pool_info {
    uint32_t size;       /* set by the caller to sizeof(tasync_pool_info_t) */
    uint32_t state;      /* tasync_pool_state_t */
    uint32_t closed;     /* nonzero once closed */
    uint32_t min;
    uint32_t max;
    uint32_t reserved0;
    uint64_t id;         /* unique among the runtime's pools, from 1 */
    uint64_t idle;       /* resources ready to lend */
    uint64_t active;     /* the others: lent, being created, checked or handed over */
    uint64_t total;      /* idle + active: never more than max */
    uint64_t waiting;    /* coroutines waiting to acquire */
    tasync_location_t location;
} tasync_pool_info_t;

/*
 * Creates a pool (opts NULL: min 0, max 10, no check). callbacks is copied;
 * callbacks->create is required. No resource is created here (see
 * tasync_pool_fill). *out receives the only reference. rt NULL means the
 * calling thread's. Returns 0, or -EINVAL (no runtime, NULL, sizes too
 * small, max 0 or below min). On failure callbacks->release_data is not
 * called. Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_create(tasync_runtime_t *rt, const tasync_pool_options_t *opts,
                                  const tasync_pool_callbacks_t *callbacks, tasync_pool_t **out);

/* Takes a reference. NULL is a no-op. Since: ABI 1.3. */
TASYNC_API void tasync_pool_retain(tasync_pool_t *pool);

/*
 * Drops a reference. Every lent resource holds one too, and a coroutine
 * inside a call of the pool holds one; the last one closes the pool (see
 * tasync_pool_close) and frees it. NULL is a no-op. Since: ABI 1.3.
 */
TASYNC_API void tasync_pool_release(tasync_pool_t *pool);

/*
 * From a coroutine: acquires a resource (rule T3): an idle one, else a new
 * one while fewer than max exist, else waits for one. Returns 0 and a new
 * reference in *out_resource (the pool keeps its own; give it back with
 * tasync_pool_give_back); TASYNC_EPOOL_CLOSED; TASYNC_ESERVICE_UNAVAILABLE
 * (INACTIVE); create's code and error when creating failed; -ETIMEDOUT after
 * timeout_ns (0: none; a TASYNC_ERROR_TIMEOUT error); TASYNC_EAWAIT_CANCELLED
 * when cancellation (may be NULL) completed first; -ECANCELED when the
 * caller is cancelled; TASYNC_ENOT_IN_COROUTINE; -EINVAL. *out_error as in
 * runtime.h. Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_acquire(tasync_runtime_t *rt, tasync_pool_t *pool, tasync_awaitable_t *cancellation,
                                   uint64_t timeout_ns, void **out_resource, void **out_error);

/*
 * Acquires an idle resource without waiting and without creating one:
 * returns 0 and a new reference in *out_resource, or -EAGAIN when none is
 * idle (or coroutines wait before the caller), TASYNC_EPOOL_CLOSED,
 * TASYNC_ESERVICE_UNAVAILABLE, -EINVAL. Its checks (before_acquire, the
 * pending before_release of a resource whose coroutine ended) may suspend.
 * The resource is lent to the calling coroutine (none outside coroutines).
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_try_acquire(tasync_runtime_t *rt, tasync_pool_t *pool, void **out_resource,
                                       void **out_error);

/*
 * Gives a lent resource back (borrowed; the caller still releases its own
 * reference from acquire). With error NULL: before_release decides whether
 * it is kept (a success for the breaker) or destroyed (a failure); with an
 * error (borrowed: why the resource failed its user), it is destroyed and
 * the failure reported. A kept resource goes to the first waiting
 * coroutine, else back to the idle ones. Returns 0; -ENOENT when resource is
 * not lent by this pool; -EINVAL. Callable outside coroutines (then
 * before_release must not suspend). Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_give_back(tasync_pool_t *pool, void *resource, void *error);

/*
 * Lends a lent resource to owner instead (a coroutine of the pool's
 * runtime), or to nobody when owner is NULL (the host answers for it; it
 * does not come back by itself). Returns 0, -ENOENT, -EINVAL.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_transfer(tasync_pool_t *pool, void *resource, tasync_coroutine_t *owner);

/*
 * From a coroutine: creates resources until min exist (the pool's own
 * counting: idle, lent and in creation). Returns 0; create's code and
 * error at the first failure (reported to the breaker); TASYNC_EPOOL_CLOSED;
 * TASYNC_ENOT_IN_COROUTINE. Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_fill(tasync_runtime_t *rt, tasync_pool_t *pool, void **out_error);

/*
 * From a coroutine: one check pass (see "Health" above): the resources idle
 * now are checked one after another (taken out meanwhile), the refused ones
 * destroyed, then tasync_pool_fill. Returns 0 or what fill returns.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_check(tasync_runtime_t *rt, tasync_pool_t *pool, void **out_error);

/*
 * Closes the pool (see "Closing" above). Returns 0, or TASYNC_EPOOL_CLOSED
 * when it was closed already, -EINVAL. Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_close(tasync_pool_t *pool);

/*
 * Sets the circuit breaker state (a tasync_pool_state_t). Moving to
 * INACTIVE fails the coroutines waiting to acquire with
 * TASYNC_ESERVICE_UNAVAILABLE. Returns 0, or -EINVAL. Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_set_state(tasync_pool_t *pool, int state);

/* The tasync_pool_state_t of pool (-EINVAL for NULL). Since: ABI 1.3. */
TASYNC_API int tasync_pool_state(const tasync_pool_t *pool);

/*
 * Installs a circuit breaker strategy (copied; NULL removes it). The one it
 * replaces gets its release_data. Returns 0, or -EINVAL.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_pool_set_breaker(tasync_pool_t *pool, const tasync_pool_breaker_t *breaker);

/* Fills *out (out->size set by the caller). Returns 0 or -EINVAL.
 * Since: ABI 1.3. */
TASYNC_API int tasync_pool_info(const tasync_pool_t *pool, tasync_pool_info_t *out);

/*
 * The resources lent now, in the order they were lent: up to cap borrowed
 * pointers in resources[] and their coroutines (NULL: nobody) in owners[]
 * (either array may be NULL). Returns how many are lent. For a host that
 * maps its users' objects back to the pointers it gave out.
 * Since: ABI 1.3.
 */
TASYNC_API size_t tasync_pool_leases(const tasync_pool_t *pool, void **resources, tasync_coroutine_t **owners,
                                     size_t cap);

TASYNC_EXTERN_C_END

#endif /* TASYNC_POOL_H */
