/*
 * tasync/scope.h - structured concurrency: the scope tree (docs/rules.md,
 * rules S1-S15), protect sections (C20) and completion callbacks (C11, S12).
 *
 * Every coroutine belongs to exactly one scope. The runtime owns a global
 * scope; hosts create root scopes (no parent) and child scopes. A scope
 * lives while anything references it: the host, each of its unfinished
 * coroutines, each child scope. What the rules say happens to coroutines
 * (cancellation, zombies, error propagation) is decided here, in the core,
 * so that every host gets the same behaviour; a host only maps its values.
 *
 * Counting (rule S9): a scope counts its active coroutines and its zombies,
 * for itself and for its whole subtree. A zombie keeps running and stays in
 * its scope's coroutine list but is not active: it blocks neither
 * tasync_scope_await_completion nor the end of the program.
 *
 * Error flow (rule S10) when a coroutine ends with an error that is not a
 * cancellation and nobody awaits it: the scope's exception handler may
 * handle it; else the parent scope's child-scope handler; else the scope is
 * cancelled and its responsibility points receive the error: the
 * coroutines waiting in tasync_scope_await_completion, and those in
 * tasync_scope_await_after_cancellation without an error handler; if none
 * waits, the same rules apply at the parent (a root scope's parent, for this
 * purpose, is the global scope); at the global scope the error starts
 * graceful shutdown (tasync_runtime_shutdown) and is kept for the host to
 * report (tasync_runtime_take_error). Handlers run on the failing
 * coroutine's stack and may suspend.
 *
 * When (Future semantics, since ABI 1.2): with no handle on the coroutine
 * (runtime.h: references the host holds) the error flows at once, before
 * the coroutine completes. While a handle is alive, the coroutine completes
 * with its error, which stays on it for every later tasync_await, and the
 * coroutine stays parked on its own stack; the error flows only when the
 * last handle is released without the error having been observed
 * (tasync_await, tasync_await_any returning it, tasync_awaitable_observe),
 * or when the program reaches its end with nobody left to observe it. A
 * release only queues that: the handlers run on the failed coroutine when
 * the scheduler gets to it, never inside the release.
 *
 * All functions are called on the runtime's thread.
 */
#ifndef TASYNC_SCOPE_H
#define TASYNC_SCOPE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

TASYNC_EXTERN_C_BEGIN

/* Scope state bits (tasync_scope_flags). Values never change. */
typedef enum tasync_scope_flag {
    TASYNC_SCOPE_GLOBAL = 1,      /* the runtime's global scope */
    TASYNC_SCOPE_CLOSED = 2,      /* refuses new coroutines (S3) */
    TASYNC_SCOPE_CANCELLED = 4,   /* cancel() was called, or an error cancelled it */
    TASYNC_SCOPE_DISPOSED = 8,    /* one of the dispose strategies ran */
    TASYNC_SCOPE_FINISHED = 16,   /* no unfinished coroutine in its subtree, zombies included */
    TASYNC_SCOPE_COMPLETED = 32,  /* closed and finished: its completion callbacks ran (S12) */
    TASYNC_SCOPE_NOT_SAFELY = 64, /* disposed by cancellation when released (S8) */
    TASYNC_SCOPE_FAILED = 128     /* an unhandled error cancelled it (S10) */
} tasync_scope_flag_t;

/* Dispose strategies (rule S7). Values never change. */
typedef enum tasync_dispose_strategy {
    /* Scope::dispose(): close, cancel every coroutine of the subtree, warn
     * about each coroutine that had not finished. */
    TASYNC_DISPOSE_CANCEL = 1,
    /* Scope::disposeSafely(): close, turn unfinished coroutines into zombies
     * (a warning each), cancel nothing. */
    TASYNC_DISPOSE_SAFELY = 2,
    /* Scope::disposeAfterTimeout(): close, turn unfinished coroutines into
     * zombies (a warning each), cancel the subtree when timeout_ns expires.
     * 0 < timeout_ns < 10 minutes, else -EINVAL. */
    TASYNC_DISPOSE_AFTER_TIMEOUT = 3,
    /* What a host does when its scope object is destroyed (S8): SAFELY, or
     * CANCEL after tasync_scope_set_not_safely; also warns (S15) when a root
     * scope still had coroutines and was never awaited nor disposed. */
    TASYNC_DISPOSE_ON_RELEASE = 4
} tasync_dispose_strategy_t;

/* Longest timeout TASYNC_DISPOSE_AFTER_TIMEOUT accepts (exclusive). */
#define TASYNC_DISPOSE_TIMEOUT_MAX_NS (UINT64_C(600) * UINT64_C(1000000000))

/*
 * Creates a scope (rule S1). parent NULL makes an independent root scope;
 * otherwise a child of parent, which inherits parent's not-safely flag (S8).
 * Fails with TASYNC_ESCOPE_CLOSED (and *out_error) when parent is closed.
 * *out receives a new reference. The creation location comes from the
 * host's capture_location. Since: ABI 1.0.
 */
TASYNC_API int tasync_scope_create(tasync_runtime_t *rt, tasync_scope_t *parent, tasync_scope_t **out,
                                   void **out_error);

/* The runtime's global scope; borrowed, lives as long as the runtime.
 * Since: ABI 1.0. */
TASYNC_API tasync_scope_t *tasync_scope_global(tasync_runtime_t *rt);

/* The scope of the running coroutine (rule S2): the global scope for the
 * main coroutine and outside coroutines. Borrowed. Since: ABI 1.0. */
TASYNC_API tasync_scope_t *tasync_scope_current(tasync_runtime_t *rt);

/* The scope co belongs to; NULL once co has completed. Borrowed.
 * Since: ABI 1.0. */
TASYNC_API tasync_scope_t *tasync_coroutine_scope(const tasync_coroutine_t *co);

/* The parent scope, or NULL for root scopes and the global scope. Borrowed.
 * Since: ABI 1.0. */
TASYNC_API tasync_scope_t *tasync_scope_parent(const tasync_scope_t *scope);

/* Reference counting; release(NULL) is a no-op. Since: ABI 1.0. */
TASYNC_API void tasync_scope_retain(tasync_scope_t *scope);
/* Drops a tasync_scope_retain reference (rule S8 for the last one of a
 * host object). NULL is a no-op. Since: ABI 1.0. */
TASYNC_API void tasync_scope_release(tasync_scope_t *scope);

/* The runtime the scope belongs to. Since: ABI 1.0. */
TASYNC_API tasync_runtime_t *tasync_scope_runtime(const tasync_scope_t *scope);
/* A unique id (the global scope is 0). Since: ABI 1.0. */
TASYNC_API uint64_t tasync_scope_id(const tasync_scope_t *scope);
/* tasync_scope_flag_t bits. Since: ABI 1.0. */
TASYNC_API uint32_t tasync_scope_flags(const tasync_scope_t *scope);
/* Where the scope was created (zeroed if unknown). Since: ABI 1.0. */
TASYNC_API tasync_location_t tasync_scope_location(const tasync_scope_t *scope);
/* Where the scope was disposed (zeroed if it was not). Since: ABI 1.0. */
TASYNC_API tasync_location_t tasync_scope_dispose_location(const tasync_scope_t *scope);
/* Unfinished coroutines of the subtree that are active (S9).
 * Since: ABI 1.0. */
TASYNC_API size_t tasync_scope_active_count(const tasync_scope_t *scope);
/* Unfinished coroutines of the subtree that are zombies (S9).
 * Since: ABI 1.0. */
TASYNC_API size_t tasync_scope_zombie_count(const tasync_scope_t *scope);

/* Opaque host pointer stored with the scope (e.g. the host's object), not
 * owned by the core. Since: ABI 1.0. */
TASYNC_API void *tasync_scope_host_data(const tasync_scope_t *scope);
/* Replaces the scope's host pointer. Since: ABI 1.0. */
TASYNC_API void tasync_scope_set_host_data(tasync_scope_t *scope, void *host_data);

/*
 * Cancels the scope (rule S6): closes it, then cancels every child scope
 * (children before parents, recursively) and every coroutine of the scope,
 * zombies included, with error (retained; NULL creates a CancellationError).
 * Coroutines waiting in tasync_scope_await_completion on it are woken with
 * the error. A coroutine may cancel its own scope (it is then marked
 * cancelled and keeps running, rule C8). Cancelling a cancelled scope again
 * with an error warns that the call is ignored; without an error it is a
 * silent no-op. Returns 0. Since: ABI 1.0.
 */
TASYNC_API int tasync_scope_cancel(tasync_scope_t *scope, void *error);

/*
 * Disposes the scope with a strategy (rule S7): child scopes first with the
 * same strategy, then the scope's own coroutines. Repeated calls, and calls
 * on a cancelled scope, are no-ops returning 0. timeout_ns is used by
 * TASYNC_DISPOSE_AFTER_TIMEOUT only. Returns 0, or -EINVAL (with an
 * invalid-argument error in *out_error) for a bad strategy or timeout.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_scope_dispose(tasync_scope_t *scope, int strategy, uint64_t timeout_ns, void **out_error);

/* Makes TASYNC_DISPOSE_ON_RELEASE cancel instead of creating zombies (S8,
 * Scope::asNotSafely); scopes created under it inherit the flag.
 * Since: ABI 1.0. */
TASYNC_API void tasync_scope_set_not_safely(tasync_scope_t *scope);

/*
 * From a coroutine: waits until no active coroutine remains in the scope and
 * its descendants (rule S4; zombies do not count). Returns 0; TASYNC_EFAILED
 * with the error that failed the scope (S10) or its cancellation error,
 * at once when the scope is already cancelled; TASYNC_ESCOPE_DEADLOCK when
 * the caller belongs to the scope or a descendant (it would wait for
 * itself); TASYNC_EAWAIT_CANCELLED when cancellation completes first;
 * -ECANCELED when the caller is cancelled. *out_error as in runtime.h.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_scope_await_completion(tasync_runtime_t *rt, tasync_scope_t *scope,
                                             tasync_awaitable_t *cancellation, void **out_error);

/*
 * Called by tasync_scope_await_after_cancellation, on the waiting
 * coroutine, for each error (borrowed) a coroutine of the scope's subtree
 * ended with while it waited. Returns 0 to go on waiting; any other value
 * stops the wait, which then returns that value (the host keeps whatever
 * error it raised itself).
 */
typedef int (*tasync_scope_error_cb)(void *data, tasync_scope_t *scope, void *error);

/*
 * From a coroutine, only after the scope was cancelled (rule S5): waits
 * until every coroutine of the subtree has finished, zombies included, and
 * the scope's completion callbacks ran (S12). While it waits, errors of
 * those coroutines that would otherwise flow up (S10) go to handler (when
 * not NULL) instead. Without a handler the caller is a responsibility point
 * like tasync_scope_await_completion (since ABI 1.2): an error that no
 * exception handler takes ends the wait with TASYNC_EFAILED and that error
 * instead of flowing on. Returns 0; TASYNC_ENOT_CANCELLED when the scope was
 * not cancelled; the codes of tasync_scope_await_completion otherwise.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_scope_await_after_cancellation(tasync_runtime_t *rt, tasync_scope_t *scope,
                                                     tasync_scope_error_cb handler, void *data,
                                                     tasync_awaitable_t *cancellation, void **out_error);

/*
 * An exception handler (rules S10, S11), called on the failing coroutine
 * co with the error (borrowed). Returns 0 when it handled the error; a
 * nonzero value means it raised a new error: *out_error then holds a new
 * reference to it (or NULL to keep propagating the original), which
 * continues at the handler's scope's parent.
 */
typedef int (*tasync_exception_handler_cb)(void *data, tasync_scope_t *scope, tasync_coroutine_t *co, void *error,
                                           void **out_error);

/*
 * Sets (replaces; cb NULL removes) the scope's exception handler, for errors
 * of its own coroutines, or its child-scope handler, for errors that come up
 * from child scopes. release(data) is called when the handler is replaced or
 * the scope is freed (may be NULL). Both fail with TASYNC_EBAD_STATE on the
 * global scope (S11). Since: ABI 1.0.
 */
TASYNC_API int tasync_scope_set_exception_handler(tasync_scope_t *scope, tasync_exception_handler_cb cb,
                                                  void *data, void (*release)(void *data));
/* The child-scope handler, as above. Since: ABI 1.0. */
TASYNC_API int tasync_scope_set_child_exception_handler(tasync_scope_t *scope, tasync_exception_handler_cb cb,
                                                        void *data, void (*release)(void *data));

/*
 * Registers a completion callback (rule S12): when the scope completes
 * (it is closed and every coroutine of its subtree, zombies included, has
 * finished), a coroutine is spawned from *callback (copied; its scope member
 * is ignored: callbacks run in the global scope, even when it is closed).
 * Registering on a completed scope spawns at once. The global scope
 * completes when tasync_runtime_run reaches the end of the program. Each
 * callback runs in its own coroutine. On failure (or if the runtime is
 * destroyed first) callback->arg_release runs. Since: ABI 1.0.
 *
 * Since ABI 1.2 callbacks are defers (rule C11): each is charged to the
 * scope (the scope and its ancestors count it as unfinished, so their
 * waiters resume after it, and an error it ends with flows from the scope,
 * S10); it always starts, and runs shielded from cancellation as inside a
 * protect section (C20): the scope's cancellation and graceful shutdown do
 * not interrupt it, the forced phase of shutdown (C15) and the deadlock
 * breaker (C14) end its waits.
 */
TASYNC_API int tasync_scope_on_finally(tasync_scope_t *scope, const tasync_spawn_options_t *callback);

/*
 * The same for a coroutine (rule C11): a coroutine is spawned from
 * *callback after co completes; registering on a completed coroutine
 * spawns at once. Since ABI 1.2: co's awaiters resume only once every
 * callback registered before they would have resumed has finished (one that
 * suspends holds them); a callback may await co itself, which returns at
 * once; callbacks are charged to co's scope as scope callbacks are to
 * theirs (a callback registered once co no longer has a scope is charged to
 * none: its error flows from the global scope). Since: ABI 1.0.
 */
TASYNC_API int tasync_coroutine_on_finally(tasync_coroutine_t *co, const tasync_spawn_options_t *callback);

/*
 * Enumeration (S13): copies up to cap borrowed pointers (valid until the
 * next switch) and returns how many there are in all. Coroutines are the
 * scope's own unfinished ones, zombies included, in spawn order; children
 * are the child scopes alive, in creation order. Since: ABI 1.0.
 */
TASYNC_API size_t tasync_scope_coroutines(const tasync_scope_t *scope, tasync_coroutine_t **out, size_t cap);
/* The child scopes, as above. Since: ABI 1.0. */
TASYNC_API size_t tasync_scope_children(const tasync_scope_t *scope, tasync_scope_t **out, size_t cap);

/*
 * From inside a coroutine, just before its entry returns: applies rule S10
 * now to the error set with tasync_coroutine_set_error, so that the handlers
 * it calls run while the host's execution state for this coroutine is still
 * in place (they are host code and may suspend). Without this call the core
 * does the same right after the entry returns. Calling it again, or without
 * an error, does nothing. Returns 0, or TASYNC_EBAD_STATE when self is not
 * the running coroutine. Since: ABI 1.0.
 */
TASYNC_API int tasync_coroutine_route_error(tasync_coroutine_t *self);

/* ------------------------------------------------------------- protect */

/*
 * Protect sections (rule C20): while one is open (they nest), a cancellation
 * of the running coroutine is held back; tasync_protect_end of the outermost
 * section delivers it: it returns -ECANCELED with the CancellationError in
 * *out_error (new reference). Both return TASYNC_ENOT_IN_COROUTINE outside
 * a coroutine; end returns TASYNC_EBAD_STATE without a matching begin.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_protect_begin(tasync_runtime_t *rt);
/* Closes the innermost protect section, as above. Since: ABI 1.0. */
TASYNC_API int tasync_protect_end(tasync_runtime_t *rt, void **out_error);

TASYNC_EXTERN_C_END

#endif /* TASYNC_SCOPE_H */
