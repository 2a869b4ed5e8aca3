/*
 * tasync/runtime.h - the runtime side of the ABI: what the core offers hosts
 * and extensions (implemented by libtasync).
 *
 * One runtime per OS thread. Every object (coroutine, awaitable, timer) belongs
 * to the runtime that created it and is used on that runtime's thread only,
 * except for the functions marked "Thread-safe".
 *
 * The thread that creates a runtime becomes its main coroutine (rule C3): it
 * can spawn, suspend and await like any other coroutine, and calls
 * tasync_runtime_run() to wait until no active coroutine remains.
 *
 * Conventions:
 *  - Functions return 0 (or a count) on success and a negative code on failure
 *    (see errors.h). Functions that suspend return TASYNC_EFAILED when the
 *    awaited thing failed, -ECANCELED when the calling coroutine was cancelled,
 *    TASYNC_EAWAIT_CANCELLED when the cancellation awaitable fired first, or
 *    another code for misuse; in every such case, when out_error is not NULL,
 *    *out_error receives a new reference to the host error object to raise.
 *    Pass out_error NULL to let the core drop it.
 *  - "value" and "error" pointers are the host's (host.h); out parameters
 *    receive new references that the caller releases with
 *    tasync_value_release / tasync_error_release.
 *  - Arguments are borrowed unless a comment says otherwise.
 */
#ifndef TASYNC_RUNTIME_H
#define TASYNC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "host.h"
#include "reactor.h"
#include "version.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_runtime tasync_runtime_t;
typedef struct tasync_awaitable tasync_awaitable_t;
typedef struct tasync_scope tasync_scope_t;
typedef struct tasync_timer tasync_timer_t;
/* Named by tasync_wait_info_t; their typedefs are in channel.h and pool.h. */
struct tasync_channel;
struct tasync_pool;

/* ---------------------------------------------------------------- runtime */

/* Flags for tasync_runtime_options_t.flags. */
typedef enum tasync_runtime_flag {
    /* When the chosen backend cannot be loaded, warn (through the host) with
     * the reason and load the default backend instead. */
    TASYNC_RUNTIME_FALLBACK_DEFAULT = 1
} tasync_runtime_flag_t;

/* Since: ABI 1.0. */
typedef struct tasync_runtime_options {
    uint32_t size;              /* sizeof(tasync_runtime_options_t) */
    uint32_t flags;             /* tasync_runtime_flag_t bits */
    /* A backend name ("uv", "uring", "ev": resolved as
     * <backend_dir>/tasync-backend-<name>.so) or a path containing '/'.
     * NULL or "" means the default, "uv". */
    const char *backend;
    /* Directory holding backends; NULL means $TASYNC_BACKEND_DIR as it was
     * when the core library was loaded, else the directory the core was
     * installed with. A backend file or directory writable by group or
     * others is refused (TASYNC_EBACKEND_UNSAFE, ABI 1.3). */
    const char *backend_dir;
    size_t stack_size;          /* coroutine stack size in bytes; 0 = 256 KiB */
    uint32_t stack_cache;       /* free stacks kept for reuse; 0 = 128 */
    /* The most threads of the core's pool for offloaded work (on every
     * backend since ABI 1.3); they start on demand and exit after 10 s
     * idle. 0 = 64 (4, all kept, before ABI 1.2). */
    uint32_t thread_pool_size;
    const tasync_host_t *host;  /* NULL: the built-in C host */
    void *host_data;            /* passed to every host callback */
    char *errbuf;               /* receives the reason when create fails */
    size_t errbuf_size;
    uint64_t zombie_timeout_ns; /* rule S9; 0 = 2 s */
    /* Since ABI 1.3. Under an address-space limit (RLIMIT_AS), coroutine
     * stacks are not mapped into the last this many bytes of it, which stay
     * for the host's own allocations: a coroutine whose stack does not fit
     * fails with a TASYNC_ERROR_SYSTEM error (-ENOMEM) instead of the
     * process running out. 0 = 64 MiB. Ignored without a limit. */
    size_t address_space_reserve;
} tasync_runtime_options_t;

/*
 * Creates a runtime on the calling thread, loading the backend and creating
 * its loop. The calling context becomes the main coroutine. Fails with
 * -EBUSY if the thread already has a runtime, or with a TASYNC_EBACKEND_*
 * code (and a reason in errbuf) if the backend cannot be used.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_runtime_create(const tasync_runtime_options_t *opts, tasync_runtime_t **out);

/*
 * Destroys the runtime. Call it from the main coroutine, not from a spawned
 * one. Coroutines that never finished are freed without being resumed (their
 * arg_release and the host's coroutine_free still run); timers and watches
 * are closed. NULL is a no-op. Since: ABI 1.0.
 */
TASYNC_API void tasync_runtime_destroy(tasync_runtime_t *rt);

/* The calling thread's runtime, or NULL. Thread-safe. Since: ABI 1.0. */
TASYNC_API tasync_runtime_t *tasync_runtime_current(void);

/*
 * From the main coroutine: runs coroutines and the reactor until no active
 * coroutine and no referenced work remains. Zombies (rule S9) do not keep
 * the program alive: once nothing active remains they get the zombie
 * timeout to finish, then are cancelled. Returns 0; TASYNC_EDEADLOCK after
 * reporting a deadlock (C14); TASYNC_EFAILED when an error reached the
 * global scope unhandled (S10). In both failure cases the error to report
 * is available from tasync_runtime_take_error. May be called again later
 * (e.g. after more coroutines were spawned at shutdown).
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_runtime_run(tasync_runtime_t *rt);

/* What tasync_runtime_backend_info reports. Since: ABI 1.0. */
typedef struct tasync_backend_info {
    uint32_t size;          /* set by the caller to sizeof(tasync_backend_info_t) */
    uint32_t abi_version;   /* the backend's */
    const char *name;       /* valid while the runtime lives */
    const char *version;
    const char *path;       /* the shared object that was loaded */
    uint64_t capabilities;  /* the backend's own tasync_capability_t bits */
    uint64_t op_mask;       /* opcodes it runs natively */
} tasync_backend_info_t;

/*
 * Describes the backend the runtime loaded. The caller sets out->size; the
 * core fills as much of the struct as both sides know. Returns 0, or -EINVAL
 * when rt or out is NULL or out->size is too small for the size field.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_runtime_backend_info(tasync_runtime_t *rt, tasync_backend_info_t *out);

/* The backend's monotonic clock, in nanoseconds. Since: ABI 1.0. */
TASYNC_API uint64_t tasync_runtime_now(tasync_runtime_t *rt);

/*
 * Runs cb(data) on the runtime's thread soon, outside any coroutine. cb must
 * not suspend; it may spawn, resume and complete futures. A posted callback
 * keeps the runtime alive until it has run. Returns 0, -EINVAL when rt or cb
 * is NULL, or the error of the backend's loop_wakeup. Thread-safe; the
 * runtime may run cb, end and be destroyed before post returns (the
 * destruction waits until it has returned), so a thread may post as its
 * last use of rt. Since: ABI 1.0.
 */
TASYNC_API int tasync_runtime_post(tasync_runtime_t *rt, void (*cb)(void *data), void *data);

/*
 * Keeps the runtime alive (and out of deadlock detection) while an extension
 * waits for something outside the reactor, e.g. a thread that will call
 * tasync_runtime_post. Each ref needs one unref. Thread-safe. Since: ABI 1.0.
 */
TASYNC_API void tasync_runtime_ref(tasync_runtime_t *rt);
/*
 * Drops one tasync_runtime_ref. Thread-safe; like tasync_runtime_post, it
 * may be a thread's last use of rt even if the runtime then ends and is
 * destroyed at once. Since: ABI 1.0.
 */
TASYNC_API void tasync_runtime_unref(tasync_runtime_t *rt);

/* Releases a value or error reference obtained from the runtime. NULL is a
 * no-op. Since: ABI 1.0. */
TASYNC_API void tasync_value_release(tasync_runtime_t *rt, void *value);
/* The same for an error reference. NULL is a no-op. Since: ABI 1.0. */
TASYNC_API void tasync_error_release(tasync_runtime_t *rt, void *error);

/*
 * Creates an error through the host's factory (new reference). Useful for
 * extensions that want to cancel with a specific message. kind is a
 * tasync_error_kind_t (host.h); message NULL means "". Returns NULL when rt
 * is NULL or the host's factory fails. Since: ABI 1.0.
 */
TASYNC_API void *tasync_error_create(tasync_runtime_t *rt, int kind, const char *message);

/*
 * Writes a one-line description of an error ("CancellationError: cancelled")
 * into buf, NUL-terminated when len > 0, using the host's error_describe or
 * the built-in errors. Returns the length it wanted to write. Since: ABI 1.0.
 */
TASYNC_API size_t tasync_error_describe(tasync_runtime_t *rt, void *error, char *buf, size_t len);

/* -------------------------------------------------------------- coroutines */

/* Coroutine state bits (tasync_coroutine_flags). Values never change. */
typedef enum tasync_coroutine_flag {
    TASYNC_CO_STARTED = 1,          /* has begun running */
    TASYNC_CO_QUEUED = 2,           /* in the run queue */
    TASYNC_CO_RUNNING = 4,          /* is the current coroutine */
    TASYNC_CO_SUSPENDED = 8,        /* started, not running, not completed */
    TASYNC_CO_COMPLETED = 16,       /* finished: result or error is final */
    TASYNC_CO_CANCELLED = 32,       /* completed as cancelled (C7, C8) */
    TASYNC_CO_CANCEL_REQUESTED = 64,/* a cancellation is pending or delivered */
    TASYNC_CO_ZOMBIE = 128,         /* rule S9 */
    TASYNC_CO_MAIN = 256,           /* the runtime's main coroutine */
    TASYNC_CO_PROTECTED = 512,      /* inside a protect section (C20) */
    TASYNC_CO_HIGH_PRIORITY = 1024, /* runs ahead of the run queue (Since: ABI 1.2) */
    TASYNC_CO_ABORTED = 2048        /* aborted by tasync_runtime_abort (Since: ABI 1.2) */
} tasync_coroutine_flag_t;

/* The body of a coroutine. It ends by returning; before that it may set its
 * result or error with tasync_coroutine_set_result / _set_error. */
typedef void (*tasync_entry_cb)(tasync_coroutine_t *self, void *arg);

/* Since: ABI 1.0. */
typedef struct tasync_spawn_options {
    uint32_t size;                  /* sizeof(tasync_spawn_options_t) */
    uint32_t flags;                 /* reserved, 0 */
    tasync_entry_cb entry;          /* required */
    void *arg;                      /* passed to entry */
    /* Called exactly once when the coroutine no longer needs arg: after entry
     * returns, or when the coroutine is cancelled or destroyed before it
     * started. May be NULL. */
    void (*arg_release)(void *arg);
    tasync_scope_t *scope;          /* NULL: the current scope (rule S2) */
    void *host_data;                /* per-coroutine host data (host.h) */
    tasync_location_t location;     /* spawn location; file NULL: ask the host */
} tasync_spawn_options_t;

/*
 * Queues a new coroutine (rule C1: it starts when the spawner suspends).
 * When out is not NULL it receives a new reference (a handle, see
 * tasync_coroutine_retain). Fails with TASYNC_ESCOPE_CLOSED (and
 * *out_error) if the scope is closed (S3). Since: ABI 1.0.
 */
TASYNC_API int tasync_spawn(tasync_runtime_t *rt, const tasync_spawn_options_t *opts,
                            tasync_coroutine_t **out, void **out_error);

/*
 * Every reference the host takes through the ABI (tasync_spawn's out,
 * these, tasync_awaitable_retain on a coroutine) is a handle for rule S10's
 * Future semantics (since ABI 1.2): while one is alive, an error the
 * coroutine ends with stays on it for later awaiters instead of flowing up
 * the scope tree (scope.h). Releasing the last one never runs host code: an
 * escalation it starts is queued. Takes a reference (a handle).
 * Since: ABI 1.0 (the handle meaning: ABI 1.2).
 */
TASYNC_API void tasync_coroutine_retain(tasync_coroutine_t *co);
/* Drops a reference; NULL is a no-op. A coroutine lives while it runs or
 * waits, whatever its reference count. Since: ABI 1.0. */
TASYNC_API void tasync_coroutine_release(tasync_coroutine_t *co);

/* The running coroutine (the main coroutine outside spawned ones); borrowed.
 * NULL when called outside any coroutine (from a reactor callback).
 * Since: ABI 1.0. */
TASYNC_API tasync_coroutine_t *tasync_coroutine_current(tasync_runtime_t *rt);

/* The runtime co belongs to. Since: ABI 1.0. */
TASYNC_API tasync_runtime_t *tasync_coroutine_runtime(const tasync_coroutine_t *co);
/* co's id, unique within its runtime; the main coroutine's is 0.
 * Since: ABI 1.0. */
TASYNC_API uint64_t tasync_coroutine_id(const tasync_coroutine_t *co);
/* co's tasync_coroutine_flag_t bits. Since: ABI 1.0. */
TASYNC_API uint32_t tasync_coroutine_flags(const tasync_coroutine_t *co);
/* The host's pointer given at spawn (tasync_spawn_options_t.host_data), or
 * the one set since; not owned by the core. Since: ABI 1.0. */
TASYNC_API void *tasync_coroutine_host_data(const tasync_coroutine_t *co);
/* Replaces co's host pointer. Since: ABI 1.0. */
TASYNC_API void tasync_coroutine_set_host_data(tasync_coroutine_t *co, void *host_data);

/*
 * Makes co a high-priority coroutine (on nonzero) or an ordinary one again:
 * whenever it becomes runnable (started, woken from a wait) it goes to the
 * front of the run queue, ahead of the coroutines queued before it; queued
 * already, it moves to the front now. A yield still puts it at the back (a
 * yield lets the others run). Returns 0, or -EINVAL. Since: ABI 1.2.
 */
TASYNC_API int tasync_coroutine_set_high_priority(tasync_coroutine_t *co, int on);

/* The coroutine as an awaitable (borrowed, lives as long as co). Never NULL
 * for a valid co. Since: ABI 1.0. */
TASYNC_API tasync_awaitable_t *tasync_coroutine_awaitable(tasync_coroutine_t *co);

/* From inside the coroutine: sets the value (retained) it completes with.
 * Calling again replaces. Since: ABI 1.0. */
TASYNC_API void tasync_coroutine_set_result(tasync_coroutine_t *self, void *value);
/* From inside the coroutine: sets the error (retained) it completes with.
 * Calling again replaces. Since: ABI 1.0. */
TASYNC_API void tasync_coroutine_set_error(tasync_coroutine_t *self, void *error);

/*
 * The final outcome of a completed coroutine: borrowed pointers valid while
 * co is referenced. Returns TASYNC_EBAD_STATE if it has not completed.
 * Available to its finally callbacks (C11) before its awaiters resume.
 * Reading it does not observe the error (S10, tasync_awaitable_observe).
 * Returns 0 otherwise (*error NULL when it completed with a value).
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_coroutine_outcome(const tasync_coroutine_t *co, void **value, void **error);

/*
 * Requests cancellation (rules C7, C8). error may be NULL (a default
 * CancellationError is created); it is retained. Not started: it will never
 * start and completes as cancelled. Suspended: resumed with the error at its
 * suspension point (held back while protected, C20). Running (self-cancel):
 * marked, keeps running, completes as cancelled. Completed: nothing.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_coroutine_cancel(tasync_coroutine_t *co, void *error);

/*
 * The usable part of co's machine stack: [*low, *high), the guard region
 * excluded (a host that checks recursion depth, as PHP 8.3+ does, needs it).
 * Returns 0, or TASYNC_EBAD_STATE when co has no stack (not started, done,
 * or the main coroutine, whose stack is the thread's). Since: ABI 1.0.
 */
TASYNC_API int tasync_coroutine_stack_bounds(const tasync_coroutine_t *co, void **low, void **high);

/*
 * For hosts that turn a cancelled blocking call into an ordinary failure
 * (rule C18: a cancelled fread() returns false as a failed read does): makes
 * the cancellation that ended self's last wait pending again, so that its
 * next suspension point (or the end of a protect section) delivers it.
 * Returns 0, or TASYNC_EBAD_STATE when self was not cancelled.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_coroutine_repend_cancellation(tasync_coroutine_t *self);

/* Where co was spawned; zeroed when unknown. The strings are the host's
 * (host.h, capture_location). Since: ABI 1.0. */
TASYNC_API tasync_location_t tasync_coroutine_spawn_location(const tasync_coroutine_t *co);
/* Where co last suspended; zeroed when unknown or never suspended.
 * Since: ABI 1.0. */
TASYNC_API tasync_location_t tasync_coroutine_suspend_location(const tasync_coroutine_t *co);

/* ---------------------------------------------------------------- suspend */

/*
 * Yields: the current coroutine goes to the back of the run queue (C2).
 * Returns 0, -ECANCELED (with *out_error) if it was cancelled meanwhile, or
 * TASYNC_ENOT_IN_COROUTINE outside a coroutine. Since: ABI 1.0.
 */
TASYNC_API int tasync_yield(tasync_runtime_t *rt, void **out_error);

/*
 * Parks the current coroutine until someone calls tasync_resume or
 * tasync_resume_error on it, or it is cancelled. Returns 0 and a new
 * reference in *out_value (may be NULL), TASYNC_EFAILED with *out_error
 * when resumed with an error, -ECANCELED with *out_error, or
 * TASYNC_ENOT_IN_COROUTINE outside a coroutine. Since: ABI 1.0.
 */
TASYNC_API int tasync_suspend(tasync_runtime_t *rt, void **out_value, void **out_error);

/* Wakes a coroutine parked in tasync_suspend with a value (retained; may be
 * NULL). Returns 0, or TASYNC_EBAD_STATE if it is not parked there.
 * Since: ABI 1.0. */
TASYNC_API int tasync_resume(tasync_coroutine_t *co, void *value);
/* The same with an error (retained): its tasync_suspend returns
 * TASYNC_EFAILED. Returns 0, -EINVAL when error is NULL, or
 * TASYNC_EBAD_STATE. Since: ABI 1.0. */
TASYNC_API int tasync_resume_error(tasync_coroutine_t *co, void *error);

/* ----------------------------------------------------------------- awaiting */

/* Takes a reference to aw (on a coroutine: a handle, see
 * tasync_coroutine_retain). NULL is a no-op. Since: ABI 1.0. */
TASYNC_API void tasync_awaitable_retain(tasync_awaitable_t *aw);
/* Drops a reference; the last one frees aw. NULL is a no-op.
 * Since: ABI 1.0. */
TASYNC_API void tasync_awaitable_release(tasync_awaitable_t *aw);

/* Nonzero once the awaitable has completed (a timeout has fired, a future is
 * resolved, a coroutine finished); 0 for NULL. Since: ABI 1.0. */
TASYNC_API int tasync_awaitable_is_completed(const tasync_awaitable_t *aw);

/*
 * Waits until what completes (C4) and returns its value (new reference in
 * *out_value) or TASYNC_EFAILED and its error: the same error object to every
 * awaiter; an error returned is observed (S10). A coroutine completes for
 * its awaiters once its finally callbacks have run (C11); one of those
 * callbacks awaiting it gets its outcome at once. When cancellation (may be
 * NULL) completes first, returns TASYNC_EAWAIT_CANCELLED with an
 * AwaitCancelledException (C5) and what goes on. Awaiting oneself gives
 * TASYNC_ESELF_AWAIT (C6). Otherwise 0, or -ECANCELED when the caller is
 * cancelled, TASYNC_ENOT_IN_COROUTINE outside a coroutine. Since: ABI 1.0.
 */
TASYNC_API int tasync_await(tasync_runtime_t *rt, tasync_awaitable_t *what, tasync_awaitable_t *cancellation,
                            void **out_value, void **out_error);

/*
 * tasync_await with a deadline of the wait's own (deadline_ns on the
 * runtime's clock, 0: none): an outcome already there is returned as
 * tasync_await returns it; otherwise -ETIMEDOUT (no error object, and
 * what goes on) when the deadline comes before the outcome, at once when
 * it has passed already. No timeout awaitable is made. Since: ABI 1.3.
 */
TASYNC_API int tasync_await_until(tasync_runtime_t *rt, tasync_awaitable_t *what, uint64_t deadline_ns,
                                  tasync_awaitable_t *cancellation, void **out_value, void **out_error);

/* A single-assignment awaitable completed by the caller: a new reference in
 * *out. rt NULL means the calling thread's. Returns 0, or -EINVAL (no
 * runtime, out NULL). Since: ABI 1.0. */
TASYNC_API int tasync_future_create(tasync_runtime_t *rt, tasync_awaitable_t **out);
/* Completes a future with a value (retained). Returns 0, or
 * TASYNC_EBAD_STATE if it is not a future or already completed.
 * Since: ABI 1.0. */
TASYNC_API int tasync_future_resolve(tasync_awaitable_t *future, void *value);
/* Completes a future with an error (retained). Returns as
 * tasync_future_resolve. Since: ABI 1.0. */
TASYNC_API int tasync_future_reject(tasync_awaitable_t *future, void *error);

/* An awaitable that completes timeout_ns after creation (C21). New reference
 * in *out. It does not keep the runtime alive by itself, only while awaited.
 * rt NULL means the calling thread's. Returns 0, or -EINVAL (no runtime, out
 * NULL). Since: ABI 1.0. */
TASYNC_API int tasync_timeout_create(tasync_runtime_t *rt, uint64_t timeout_ns, tasync_awaitable_t **out);

/*
 * Cancels a timeout that has not fired: it never fires; it completes with
 * error (retained; NULL creates a CancellationError), which its awaiters
 * receive; a wait that uses it as its cancellation goes on without one.
 * Fired or cancelled already: nothing. Returns 0, or -EINVAL when timeout
 * is not a timeout. Since: ABI 1.2.
 */
TASYNC_API int tasync_timeout_cancel(tasync_awaitable_t *timeout, void *error);

/* Suspends for timeout_ns (C21). Cancellable like any suspension. Returns 0
 * once the time has passed, or what a wait returns (-ECANCELED,
 * TASYNC_EAWAIT_CANCELLED, TASYNC_ENOT_IN_COROUTINE) with *out_error.
 * Since: ABI 1.0. */
TASYNC_API int tasync_delay(tasync_runtime_t *rt, uint64_t timeout_ns, tasync_awaitable_t *cancellation,
                            void **out_error);

/*
 * Waits until fd is ready for events (tasync_io_event_t bits). Returns 0 and
 * the ready events in *revents, or an error code: -EBADF when the fd is
 * forgotten meanwhile (tasync_fd_forget), the backend's error for an fd it
 * cannot watch, or what a wait returns (-ECANCELED,
 * TASYNC_EAWAIT_CANCELLED, TASYNC_ENOT_IN_COROUTINE). Any number of
 * coroutines may wait on the same fd. Readiness is a hint (reactor.h, G5):
 * another reader may have drained the fd before the caller runs, so the
 * caller uses a non-blocking fd and waits again on EAGAIN. Since: ABI 1.0.
 */
TASYNC_API int tasync_await_fd(tasync_runtime_t *rt, int fd, unsigned events, tasync_awaitable_t *cancellation,
                               unsigned *revents, void **out_error);

/*
 * tasync_await_fd with a deadline that travels with the wait: waits until
 * fd is ready for events or the runtime's clock (tasync_runtime_now)
 * reaches deadline_ns, whichever comes first; 0 means no deadline. Returns
 * as tasync_await_fd does, or -ETIMEDOUT when the deadline came first: an
 * answer, not an error (*out_error stays NULL). A deadline already reached
 * returns -ETIMEDOUT at once, without suspending (a pending cancellation
 * waits for the next suspension). The deadline is an entry of the
 * runtime's timer heap inside the wait: no timeout awaitable is made and a
 * wait that ends by readiness allocates nothing. cancellation may be NULL.
 * Since: ABI 1.3.
 */
TASYNC_API int tasync_await_fd_until(tasync_runtime_t *rt, int fd, unsigned events, uint64_t deadline_ns,
                                     tasync_awaitable_t *cancellation, unsigned *revents, void **out_error);

/*
 * Tells the runtime that fd is about to be closed: coroutines waiting on it
 * are resumed with -EBADF, whoever started their waits, and its reactor
 * watch is removed. Call it before close(fd) for any fd that was passed to
 * tasync_await_fd. Whoever closes an fd calls it, so that no wait outlives
 * the descriptor: a host does it for the descriptors it closes (PHP's
 * async.so for every stream and socket PHP closes). Since: ABI 1.0.
 */
TASYNC_API void tasync_fd_forget(tasync_runtime_t *rt, int fd);

/* Waits for the next delivery of signum (rule C26; the core's signal
 * registry, whatever the backend). Returns 0 for a delivery (one kept from
 * before the call counts), -EINVAL for a signal that cannot be watched
 * (SIGKILL, SIGSTOP, the fault signals, the C library's own), the error of
 * installing the handler, or what a wait returns. Since: ABI 1.0. */
TASYNC_API int tasync_await_signal(tasync_runtime_t *rt, int signum, tasync_awaitable_t *cancellation,
                                   void **out_error);

/*
 * Rule C26: after the host installed a handler over the runtime's for a
 * signal that a runtime of the process watches (tasync_await_signal keeps
 * a signal watched until the runtime ends) - PHP's pcntl_signal() does
 * that - puts the runtime's handler back in front. The handler just
 * installed becomes the one the runtime's calls after counting each
 * delivery for its waiters (a SIG_DFL or SIG_IGN is a disposition and is
 * not called: while watched, the waiters are the signal's handling); at
 * the end of the last watch it is what the signal gets back. Returns 0
 * (also when the runtime's handler is already in place), -ENOENT when no
 * runtime watches signum, -EINVAL for a signal that cannot be watched.
 * Any thread. Since: ABI 1.2.
 */
TASYNC_API int tasync_signal_reclaim(int signum);

/* Waits for child process pid to exit (the runtime reaps it) and reports
 * its exit status or terminating signal (either pointer may be NULL; the
 * status is -1 when something else, such as pcntl_waitpid, reaped it
 * first). Returns 0, -EINVAL for pid <= 0, -ECHILD when pid is not a child of this
 * process, or what a wait returns. Since: ABI 1.0. */
TASYNC_API int tasync_await_child(tasync_runtime_t *rt, int pid, tasync_awaitable_t *cancellation,
                                  int *exit_status, int *term_signal, void **out_error);

/*
 * Waits until child process pid has exited WITHOUT reaping it: the child
 * stays a zombie for the caller, whose own waitpid(pid) then returns at
 * once. For code that reaps its children itself and keeps bookkeeping
 * around that call (PHP's proc_close and pclose): it suspends here first,
 * then lets its own code reap. Uses a pidfd of its own watched for
 * readability where the kernel has pidfd_open (Linux >= 5.3), else polls
 * waitid(WNOWAIT) with a delay growing from 1 ms to 50 ms; never installs a
 * SIGCHLD handler and never reaps another process. Returns 0 once the child
 * has exited (at once if it already had), -ECHILD when pid is not a child of
 * this process (or was reaped already), -EINVAL for pid <= 0, or what a wait
 * returns (-ECANCELED, TASYNC_EAWAIT_CANCELLED when cancellation completed
 * first). Any number of coroutines may wait for the same child.
 * Since: ABI 1.2.
 */
TASYNC_API int tasync_await_child_exit(tasync_runtime_t *rt, int pid, tasync_awaitable_t *cancellation,
                                       void **out_error);

/*
 * Runs fn(data) on a worker thread of the core's pool and suspends until it
 * has run. When no thread runs and none can be started, fn runs on the
 * calling thread instead (the host is warned once per runtime). A cancellation that arrives
 * before the work started removes it (-ECANCELED); once it runs, the
 * cancellation is delivered when it finishes, since data may live on the
 * caller's stack. Returns 0 once fn has run, or what a wait returns.
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_offload(tasync_runtime_t *rt, void (*fn)(void *data), void *data,
                              tasync_awaitable_t *cancellation, void **out_error);

/*
 * Runs a completion-style operation (reactor.h, tasync_op_t) and waits for it:
 * natively when the backend has TASYNC_CAP_COMPLETION for the opcode, else
 * emulated by the core (readiness plus a non-blocking system call for
 * sockets and pipes; the thread pool for regular files, fsync and openat),
 * so every backend offers the same operations. The caller fills opcode, fd,
 * buf, len, offset, op_flags, mode (and addrlen for ACCEPT); the runtime
 * owns cb, data and internal while the operation runs. Returns the result
 * (bytes, a new fd, or 0), short reads and writes included, or a negative
 * code (*out_error then holds an error object). A cancellation requested
 * while the kernel owns the buffer is delivered once the operation has
 * ended; a result that wins the race is returned, not lost. Since: ABI 1.0.
 */
TASYNC_API int tasync_await_op(tasync_runtime_t *rt, tasync_op_t *op, tasync_awaitable_t *cancellation,
                               void **out_error);

/*
 * Waits until the first of n awaitables completes (each may be awaited by
 * others too). Returns its index (>= 0); its value and error are NOT
 * consumed: read them with tasync_awaitable_outcome. The one returned is
 * observed for rule S10 (the caller answers for its error); the others are
 * not, even those that completed meanwhile (since ABI 1.2; before, every
 * one counted as awaited while the call waited). Returns
 * TASYNC_EAWAIT_CANCELLED, -ECANCELED, TASYNC_ESELF_AWAIT (one of them is
 * the caller) or -EINVAL (n == 0) as tasync_await does. Since: ABI 1.0.
 */
TASYNC_API int tasync_await_any(tasync_runtime_t *rt, tasync_awaitable_t *const *what, size_t n,
                                tasync_awaitable_t *cancellation, void **out_error);

/*
 * The outcome of a completed awaitable: borrowed pointers valid while aw is
 * referenced. Returns 0 (no error), TASYNC_EFAILED (*error set), or
 * TASYNC_EBAD_STATE when it has not completed. Reading an outcome is not
 * observing it (rule S10): see tasync_awaitable_observe. Since: ABI 1.0.
 */
TASYNC_API int tasync_awaitable_outcome(const tasync_awaitable_t *aw, void **value, void **error);

/*
 * Rule S10's Future semantics: marks aw's outcome as observed. The caller
 * takes responsibility for its error, so a coroutine's error will not
 * escalate through the scope tree when its last handle is released. For
 * extensions that hand errors to their users without awaiting (a combinator
 * that collects them with tasync_awaitable_outcome); tasync_await and
 * tasync_await_any mark what they return themselves. NULL is a no-op.
 * Since: ABI 1.2.
 */
TASYNC_API void tasync_awaitable_observe(tasync_awaitable_t *aw);

/* ------------------------------------------------------ shutdown (C14, C15) */

/* Phases reported by tasync_runtime_shutdown_phase. */
typedef enum tasync_shutdown_phase {
    TASYNC_SHUTDOWN_NONE = 0,
    /* Every coroutine was cancelled; new coroutines may still be spawned. */
    TASYNC_SHUTDOWN_GRACEFUL = 1,
    /* A second unhandled error arrived: waits are forced to end with the
     * cancellation (protect sections no longer hold it back), callback
     * timers stop keeping the runtime alive. */
    TASYNC_SHUTDOWN_FORCED = 2
} tasync_shutdown_phase_t;

/*
 * Starts graceful shutdown (rule C15; PHP: gracefulShutdown(), exit/die):
 * every coroutine, zombies included, is cancelled with error (retained;
 * NULL creates a CancellationError). Called again while graceful shutdown
 * is already running it does nothing. Returns 0. Since: ABI 1.0.
 */
TASYNC_API int tasync_runtime_shutdown(tasync_runtime_t *rt, void *error);
/* The runtime's tasync_shutdown_phase_t (TASYNC_SHUTDOWN_NONE for NULL).
 * Since: ABI 1.0. */
TASYNC_API int tasync_runtime_shutdown_phase(const tasync_runtime_t *rt);

/*
 * The error the host must report when the program ends, as a new reference
 * (NULL if none), and forgets it: the first error that reached the global
 * scope unhandled (rule S10), or the DeadlockError once a deadlock was
 * detected (rule C14). Since: ABI 1.0.
 */
TASYNC_API void *tasync_runtime_take_error(tasync_runtime_t *rt);

/* Rule S9's end-of-program grace for zombies, in nanoseconds (0 = 2 s).
 * Since: ABI 1.0. */
TASYNC_API void tasync_runtime_set_zombie_timeout(tasync_runtime_t *rt, uint64_t timeout_ns);

/*
 * Rule C25, the stall watchdog. With timeout_ns > 0, a thread of the
 * runtime's own warns, once per stall, when the runtime's thread has neither
 * switched coroutines nor polled the reactor for timeout_ns while other
 * coroutines (or posted work) wait for it. A thread that waits in the
 * reactor with nothing to do is not stalled; neither is a main coroutine
 * that runs alone with nothing else to run. The warning names the
 * coroutine; the host's stall_report member (host.h) writes it, naming
 * what the coroutine runs, else the core writes its own. It is written
 * from the watchdog's thread with write(2) on fd 2 (stderr), so it appears
 * while the stall lasts, even one that never ends (an unhooked blocking call
 * whose peer is a coroutine of the same thread). 0 disables it (the
 * default). The runtime's thread only bumps a counter where it switches or
 * polls; the watchdog samples it every quarter of the timeout (at most
 * every second), so a stall is reported between timeout_ns and about 1.25
 * times that. The watchdog's thread starts at the first spawn while a
 * timeout is set, blocks every signal, never keeps the process alive, stops
 * with tasync_runtime_destroy, and starts again in a child made by fork()
 * (the parent's thread does not exist there). From the runtime's thread.
 * Since: ABI 1.2.
 */
TASYNC_API void tasync_runtime_set_stall_timeout(tasync_runtime_t *rt, uint64_t timeout_ns);

/* ---------------------------------------------------------- introspection */

/* What a suspended coroutine waits for (tasync_wait_info_t.kind). */
typedef enum tasync_wait_kind {
    TASYNC_WAIT_NONE = 0,     /* not suspended */
    TASYNC_WAIT_YIELD = 1,    /* queued after tasync_yield */
    TASYNC_WAIT_PARK = 2,     /* tasync_suspend, until tasync_resume */
    TASYNC_WAIT_AWAIT = 3,    /* tasync_await / tasync_await_any: target */
    TASYNC_WAIT_DELAY = 4,    /* tasync_delay until deadline_ns */
    TASYNC_WAIT_FD = 5,       /* readiness of fd for events */
    TASYNC_WAIT_SIGNAL = 6,   /* signum */
    TASYNC_WAIT_CHILD = 7,    /* pid */
    TASYNC_WAIT_OFFLOAD = 8,  /* work on a thread */
    TASYNC_WAIT_OP = 9,       /* a completion operation on fd */
    TASYNC_WAIT_SCOPE = 10,   /* scope completion: scope */
    TASYNC_WAIT_GROUP = 11,   /* the next result of a task group */
    TASYNC_WAIT_END = 12,     /* the main coroutine in tasync_runtime_run */
    TASYNC_WAIT_GROUP_SLOT = 13,      /* a free place in a task group's queue (Since: ABI 1.2) */
    TASYNC_WAIT_GROUP_COMPLETION = 14, /* the completion of a task group (Since: ABI 1.2) */
    TASYNC_WAIT_CHANNEL_SEND = 15,    /* tasync_channel_send: channel (Since: ABI 1.3) */
    TASYNC_WAIT_CHANNEL_RECV = 16,    /* tasync_channel_recv: channel (Since: ABI 1.3) */
    TASYNC_WAIT_POOL = 17             /* tasync_pool_acquire: pool (Since: ABI 1.3) */
} tasync_wait_kind_t;

/* Since: ABI 1.0. */
typedef struct tasync_wait_info {
    uint32_t size;                /* set by the caller */
    uint32_t kind;                /* tasync_wait_kind_t */
    tasync_awaitable_t *target;   /* AWAIT: the (first) awaited object, borrowed */
    tasync_scope_t *scope;        /* SCOPE: the awaited scope, borrowed */
    int32_t fd;                   /* FD, OP */
    uint32_t events;              /* FD */
    int32_t signum;               /* SIGNAL */
    int32_t pid;                  /* CHILD */
    uint64_t deadline_ns;         /* DELAY; CHANNEL_* and POOL waits with a timeout; FD and
                                   * AWAIT with a deadline of their own (ABI 1.3); else
                                   * 0: on the runtime's clock */
    uint32_t count;               /* AWAIT: how many objects are awaited */
    uint32_t reserved0;
    struct tasync_channel *channel; /* CHANNEL_*: the channel, borrowed (Since: ABI 1.3) */
    struct tasync_pool *pool;       /* POOL: the pool, borrowed (Since: ABI 1.3) */
} tasync_wait_info_t;

/* Fills *out (out->size set by the caller). Returns 0 or -EINVAL.
 * Since: ABI 1.0. */
TASYNC_API int tasync_coroutine_wait_info(const tasync_coroutine_t *co, tasync_wait_info_t *out);

/*
 * Writes a one-line description of what co waits for ("awaiting coroutine
 * 7", "delay, 12 ms left", "fd 5 readable", ...) into buf (NUL-terminated
 * when len > 0). Returns the length it wanted to write. Since: ABI 1.0.
 */
TASYNC_API size_t tasync_coroutine_describe_wait(const tasync_coroutine_t *co, char *buf, size_t len);

/*
 * Copies up to cap borrowed pointers to the unfinished coroutines of the
 * runtime (the main coroutine first, then by id) and returns how many there
 * are. Valid until the next switch. Since: ABI 1.0.
 */
TASYNC_API size_t tasync_runtime_coroutines(tasync_runtime_t *rt, tasync_coroutine_t **out, size_t cap);

/*
 * Writes the whole scope and coroutine tree as indented text, one line per
 * scope and coroutine, with states, locations and what each waits for (the
 * text the deadlock report prints). NUL-terminated when len > 0; returns the
 * length it wanted to write. Since: ABI 1.0.
 */
TASYNC_API size_t tasync_runtime_dump(tasync_runtime_t *rt, char *buf, size_t len);

/* --------------------------------------------------------- callback timers */

typedef void (*tasync_timer_fn)(tasync_timer_t *timer, void *data);

/*
 * Timers with a callback, kept in the core's timer heap (cheap to re-arm).
 * The callback runs outside any coroutine and must not suspend. A started
 * timer keeps the runtime alive unless tasync_timer_set_ref(t, 0).
 * tasync_timer_create makes a stopped timer in *out (rt NULL: the calling
 * thread's). Returns 0, or -EINVAL (no runtime, cb or out NULL).
 * Since: ABI 1.0.
 */
TASYNC_API int tasync_timer_create(tasync_runtime_t *rt, tasync_timer_fn cb, void *data, tasync_timer_t **out);
/* (Re)arms t to fire after timeout_ns, then every repeat_ns when that is
 * not 0. Returns 0, or -EINVAL (NULL, or destroyed in its callback).
 * Since: ABI 1.0. */
TASYNC_API int tasync_timer_start(tasync_timer_t *t, uint64_t timeout_ns, uint64_t repeat_ns);
/* Disarms t (a stopped timer stays stopped). Returns 0, or -EINVAL for
 * NULL. Since: ABI 1.0. */
TASYNC_API int tasync_timer_stop(tasync_timer_t *t);
/* Whether a started t keeps the runtime alive (nonzero, the default) or
 * not. Since: ABI 1.0. */
TASYNC_API void tasync_timer_set_ref(tasync_timer_t *t, int ref);
/* Stops and frees; NULL is a no-op. Safe inside its own callback.
 * Since: ABI 1.0. */
TASYNC_API void tasync_timer_destroy(tasync_timer_t *t);

/* ------------------------------------- blocking functions of extensions */

/*
 * What an extension whose functions block (a database driver, a client
 * library) calls to make them cooperative (rule C18), in this order:
 *
 *   co = tasync_coroutine_suspendable(rt);        NULL: block as before
 *   rc = tasync_await_fd_until(rt, fd, ev, deadline, NULL, &revents, &err);
 *                                                 or any wait
 *   rc = tasync_wait_end(rt, rc, err);            after every wait
 *
 * A deadline is absolute, on the runtime's clock (tasync_runtime_now() plus
 * the timeout): the wait answers -ETIMEDOUT itself when it passes
 * (ABI 1.3; before, a timeout awaitable from tasync_timeout_create passed as
 * the cancellation, whose expiry returned TASYNC_EAWAIT_CANCELLED).
 * Blocking calls that have no non-blocking form run on the thread pool
 * through tasync_offload. plugins/pgsql/README.md is the worked guide.
 */

/*
 * The coroutine a blocking function of an extension may suspend now instead
 * of blocking the thread, or NULL when the function must keep its blocking
 * behaviour: the thread has no runtime (rt NULL means the calling thread's),
 * rt is another thread's, the caller is not in a coroutine (a reactor,
 * timer or posted callback), or the host refuses (tasync_host_t.may_suspend:
 * PHP refuses while an exception is pending, in destructors run by the
 * garbage collector, once the request is ending). Borrowed.
 * Since: ABI 1.2.
 */
TASYNC_API tasync_coroutine_t *tasync_coroutine_suspendable(tasync_runtime_t *rt);

/*
 * Ends one wait of an extension's blocking function: call it right after
 * every suspending call made between tasync_coroutine_suspendable and the
 * function's return, with the code that call returned and the error it gave
 * (this takes that reference; error may be NULL). It treats the outcome as
 * the host's own blocking functions do (rule C18):
 *  - rc == -ECANCELED (the coroutine was cancelled): the cancellation is made
 *    pending again, so that the coroutine's next suspension point delivers
 *    it, and -ECANCELED is returned: the function fails the way its
 *    documentation says a failed call does (never with a new error type).
 *    When the coroutine already failed a call for this same cancellation and
 *    went on, the host raises the cancellation now instead (a loop of failing
 *    calls ends);
 *  - the host may have to end the coroutine now (PHP: exit() or a fatal
 *    error in another coroutine ends the request);
 *  - otherwise rc is returned unchanged.
 * TASYNC_EHOST_RAISED means the host has raised an error in the calling
 * coroutine (PHP: an exception is pending): release what the function holds
 * and return at once, without doing more work. With a host that has no
 * wait_end member, only the first point applies (without the "already
 * failed" check) and TASYNC_EHOST_RAISED is never returned.
 * Since: ABI 1.2.
 */
TASYNC_API int tasync_wait_end(tasync_runtime_t *rt, int rc, void *error);

/* ------------------------------------------------------------------ abort */

/* Modes of tasync_runtime_abort. Values never change. Since: ABI 1.2. */
typedef enum tasync_abort_mode {
    /* The program is ending (PHP: the end of the request, or what is left
     * after it): the main coroutine is left alone. */
    TASYNC_ABORT_END = 0,
    /* A fatal error ends the program (PHP: zend_bailout): the main coroutine
     * is aborted too, unless it is the caller or waits for the end inside
     * tasync_runtime_run. */
    TASYNC_ABORT_FATAL = 1
} tasync_abort_mode_t;

/*
 * Aborts every unfinished coroutine of rt (rule C22): one that must run no
 * more of its own code because the program ends. Each coroutine other than
 * the main one (the caller included) that is not marked yet is marked
 * TASYNC_CO_ABORTED (see
 * tasync_coroutine_flags) and cancelled with error (retained; NULL: a
 * CancellationError "The program is shutting down"), which wakes it or keeps
 * it from starting. The host does the rest, the mark being all it reads:
 * a marked coroutine that resumes (or starts) unwinds at once without
 * running more user code (PHP: as after exit()), and routes no error.
 *
 * Coroutines spawned after the call are not marked: the host may run code
 * that starts then (PHP: shutdown functions), except a finally handler
 * (C11) registered before the call, which starts marked (the code that
 * registered it was aborted). With TASYNC_ABORT_FATAL the main coroutine is
 * marked and cancelled too when it is neither the caller nor inside
 * tasync_runtime_run (the host then ends the main flow at its resume, PHP
 * with a bailout); the main coroutine's mark ends when it next calls
 * tasync_runtime_run (the host's main flow has ended by then).
 * A coroutine already marked is not cancelled again; calling this again
 * marks what was spawned since. Returns how many coroutines it marked, or
 * -EINVAL (rt NULL, bad mode). From the runtime's thread. Since: ABI 1.2.
 */
TASYNC_API int tasync_runtime_abort(tasync_runtime_t *rt, int mode, void *error);

TASYNC_EXTERN_C_END

#endif /* TASYNC_RUNTIME_H */
