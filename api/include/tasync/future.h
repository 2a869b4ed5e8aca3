/*
 * tasync/future.h - what ABI 1.3 adds to the futures of runtime.h
 * (tasync_future_create, _resolve, _reject) so that a host can build a
 * complete Future on them (docs/rules.md, rule T2): single assignment with
 * an error that says where the first completion happened, creation and
 * completion locations, the failure nobody observed reported like an
 * unobserved coroutine failure (rule S10), and derived futures (map, catch,
 * finally) whose callbacks run in coroutines.
 *
 * Observing. A future's error is observed once somebody answers for it:
 * an awaiter received it (tasync_await, tasync_await_any that returned it,
 * an await-many set that took it, C4), a derived future took it over
 * (tasync_future_then), or the host called tasync_awaitable_observe (PHP:
 * Future::ignore(), which may come before the failure). A future created
 * with TASYNC_FUTURE_REPORT_UNOBSERVED that fails with an error that is not
 * a cancellation and is not observed when its last reference goes, or when
 * the program reaches its end (the moment S10 releases the errors kept for
 * coroutine handles), is reported as a coroutine failing unobserved in the
 * scope that was current where the future was created (the global scope
 * when there was none): a coroutine of the core, spawned at the future's
 * creation location, ends with that error, and S10 takes it from there
 * (exception handlers, the scope's failure, the global scope, the end of
 * the program).
 *
 * Called on the runtime's thread. Since: ABI 1.3 (the whole header).
 */
#ifndef TASYNC_FUTURE_H
#define TASYNC_FUTURE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

/* Flags for tasync_future_options_t.flags. Since: ABI 1.3. */
typedef enum tasync_future_flag {
    /* Report a failure nobody observed (see the top of this file). */
    TASYNC_FUTURE_REPORT_UNOBSERVED = 1
} tasync_future_flag_t;

/* Since: ABI 1.3. */
typedef struct tasync_future_options {
    uint32_t size;               /* sizeof(tasync_future_options_t) */
    uint32_t flags;              /* tasync_future_flag_t bits */
    /* Where the future was created; file NULL: asked from the host. */
    tasync_location_t location;
} tasync_future_options_t;

/*
 * Creates a future like tasync_future_create (opts NULL: no flags, the
 * host's location) that also records where it was created and completed.
 * *out receives the only reference. rt NULL means the calling thread's.
 * Returns 0, or -EINVAL. Since: ABI 1.3.
 */
TASYNC_API int tasync_future_create_ex(tasync_runtime_t *rt, const tasync_future_options_t *opts,
                                       tasync_awaitable_t **out);

/*
 * Completes a future (from tasync_future_create or _create_ex) once: with
 * error (retained) when it is not NULL, else with value (retained; may be
 * NULL), and records where (the host's location). A second completion
 * changes nothing and returns TASYNC_EFUTURE_COMPLETED with an
 * AsyncException-kind error in *out_error that says where the first one
 * happened when that is known. Returns 0; -EINVAL (NULL, not a future);
 * TASYNC_EBAD_STATE when its runtime is gone. Callable outside coroutines.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_future_complete(tasync_awaitable_t *future, void *value, void *error, void **out_error);

/* Where a future was created: known for tasync_future_create_ex's futures
 * (zeroed otherwise, and for NULL). Since: ABI 1.3. */
TASYNC_API tasync_location_t tasync_future_created_location(const tasync_awaitable_t *future);

/* Where a future was completed by tasync_future_complete (zeroed before,
 * when unknown, and for NULL). Since: ABI 1.3. */
TASYNC_API tasync_location_t tasync_future_completed_location(const tasync_awaitable_t *future);

/* What a derived future runs its callback for (tasync_future_then).
 * Values never change. Since: ABI 1.3. */
typedef enum tasync_future_then_mode {
    /* On success: the derived future completes with the callback's outcome.
     * On failure: it fails with the source's error, the callback not run. */
    TASYNC_FUTURE_THEN_MAP = 1,
    /* On failure: the derived future completes with the callback's outcome.
     * On success: it completes with the source's value, the callback not run. */
    TASYNC_FUTURE_THEN_CATCH = 2,
    /* Always: the derived future completes with the source's outcome, or
     * fails with the callback's error when the callback failed. */
    TASYNC_FUTURE_THEN_FINALLY = 3
} tasync_future_then_mode_t;

/*
 * A future derived from source (any awaitable: a future, a coroutine, a
 * channel operation, an await-many set...). When source completes and mode
 * asks for it, a coroutine is spawned from *callback (copied; NULL scope:
 * the scope current at this call, even when it is closed by then, as for a
 * completion callback, C11) whose entry reads source's outcome with
 * tasync_awaitable_outcome (the derivation keeps source referenced until
 * the callback ended) and ends with its result or error
 * (tasync_coroutine_set_result / _set_error); the derived future then
 * completes as mode says. Otherwise the derived future takes source's
 * outcome without a callback. Either way source's error is observed (the
 * derived future answers for it, rule S10), and the callback's coroutine
 * is awaited by the derived future (its error does not flow up its scope).
 * The host may complete the derived future itself first (a cancelled
 * Future): the derivation's outcome is then dropped.
 * Several derivations of one source run their callbacks in the order they
 * were registered. *out receives a new reference to the derived future,
 * created with flags (tasync_future_flag_t; its unobserved failure is
 * reported in the callback's scope). When source has completed
 * already the callback is spawned at once (it starts when the caller
 * suspends, C1). callback->arg_release runs exactly once: when the callback
 * coroutine is done with arg, when mode skips the callback, or on failure.
 * Returns 0; -EINVAL (NULL, bad mode, no entry); TASYNC_EWRONG_THREAD /
 * TASYNC_EBAD_STATE for a source of another or a gone runtime.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_future_then(tasync_awaitable_t *source, uint32_t mode, const tasync_spawn_options_t *callback,
                                  uint32_t flags, tasync_awaitable_t **out);

TASYNC_EXTERN_C_END

#endif /* TASYNC_FUTURE_H */
