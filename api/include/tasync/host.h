/*
 * tasync/host.h - the table a host (the PHP extension, a C program, a test)
 * gives the core, so that the core can hold the host's values and errors
 * without knowing what they are.
 *
 * Values and errors are opaque pointers. The core keeps a reference with
 * value_retain/error_retain and drops it with the matching release; it never
 * calls them with NULL. Errors the semantic rules require (cancellation,
 * deadlock, misuse) are created through error_create, so a PHP host gets real
 * PHP exception objects and a C host gets whatever it likes.
 *
 * Every member may be NULL; the core then uses a built-in behaviour (no
 * refcounting, warnings to stderr, no hooks). Without error_create the core
 * uses small built-in error objects, and every error handed to the core must
 * then come from tasync_error_create.
 * All members are called on the runtime's thread, except stall_report (it
 * is called on the stall watchdog's thread, see there).
 */
#ifndef TASYNC_HOST_H
#define TASYNC_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "version.h"

TASYNC_EXTERN_C_BEGIN

typedef struct tasync_coroutine tasync_coroutine_t;

/* Kinds of errors the core asks the host to create. Values never change. */
typedef enum tasync_error_kind {
    /* Async\CancellationError: a coroutine or scope was cancelled. */
    TASYNC_ERROR_CANCELLATION = 1,
    /* Async\AwaitCancelledException (a cancellation): await's cancellation fired. */
    TASYNC_ERROR_AWAIT_CANCELLED = 2,
    /* Async\DeadlockError. */
    TASYNC_ERROR_DEADLOCK = 3,
    /* Async\AsyncException: misuse such as awaiting oneself or a closed scope. */
    TASYNC_ERROR_ASYNC = 4,
    /* An argument outside its allowed range (PHP: ValueError). */
    TASYNC_ERROR_INVALID_ARGUMENT = 5,
    /* An operating-system error (PHP: AsyncException with the errno text). */
    TASYNC_ERROR_SYSTEM = 6,
    /* A wait's own timeout expired (PHP: Async\TimeoutException). Since: ABI 1.3. */
    TASYNC_ERROR_TIMEOUT = 7,
    /* A channel is closed (PHP: Async\ChannelException). Since: ABI 1.3. */
    TASYNC_ERROR_CHANNEL = 8,
    /* A pool is closed or cannot lend (PHP: Async\PoolException). Since: ABI 1.3. */
    TASYNC_ERROR_POOL = 9,
    /* A pool's circuit breaker is inactive (PHP:
     * Async\ServiceUnavailableException). Since: ABI 1.3. */
    TASYNC_ERROR_SERVICE_UNAVAILABLE = 10
} tasync_error_kind_t;

/* A source location. file is borrowed: the host keeps it valid until the
 * runtime is destroyed (PHP's compiled file names are, for a request). */
typedef struct tasync_location {
    const char *file; /* NULL when unknown */
    uint32_t line;
    uint32_t reserved0;
} tasync_location_t;

/*
 * What the stall watchdog (rule C25, tasync_runtime_set_stall_timeout in
 * runtime.h) knows of a stall when it asks the host to describe it.
 * Since: ABI 1.2.
 */
typedef struct tasync_stall_info {
    uint32_t size;                 /* sizeof(tasync_stall_info_t) as the core knows it */
    uint32_t is_main;              /* nonzero: the stalled coroutine is the main one */
    /* The coroutine that holds the thread, NULL when the thread is in the
     * runtime's own callbacks (a timer, reactor or posted callback of an
     * extension). An identity only: never pass it to the runtime. */
    tasync_coroutine_t *co;
    void *co_data;                 /* its host data (NULL if none) */
    uint64_t coroutine_id;         /* tasync_coroutine_id(co), 0 for the main one */
    tasync_location_t spawned_at;  /* where co was spawned (file NULL when unknown) */
    uint64_t stalled_ns;           /* how long the thread has not come back so far */
    uint64_t timeout_ns;           /* the threshold in force */
} tasync_stall_info_t;

typedef struct tasync_host {
    uint32_t size; /* sizeof(tasync_host_t) as the host knows it */
    uint32_t reserved0;

    void (*value_retain)(void *host_data, void *value);
    void (*value_release)(void *host_data, void *value);
    void (*error_retain)(void *host_data, void *error);
    void (*error_release)(void *host_data, void *error);

    /* Returns a new error object (one reference, owned by the core) of the
     * given kind; code is a TASYNC_E* or -errno the core met, message a
     * complete sentence. Must not return NULL. A kind the host does not
     * know (one added by a later ABI) gets its most general error type. */
    void *(*error_create)(void *host_data, int kind, int code, const char *message);

    /* Nonzero if error is a cancellation (Async\CancellationError or a
     * subclass). Decides rule C7: an unhandled cancellation ends a coroutine
     * as cancelled without reaching its scope. */
    int (*error_is_cancellation)(void *host_data, void *error);

    /* Writes a one-line description ("Exception: message") into buf (always
     * NUL-terminated when len > 0). Returns the length it wanted to write. */
    size_t (*error_describe)(void *host_data, void *error, char *buf, size_t len);

    /* Called right after the core switched into co (enter) and right before
     * it switches away from co (leave), including the main coroutine. A PHP
     * host saves and restores its executor state here, as Fibers do. */
    void (*coroutine_enter)(void *host_data, tasync_coroutine_t *co, void *co_data);
    void (*coroutine_leave)(void *host_data, tasync_coroutine_t *co, void *co_data);

    /* Called once when the core frees a coroutine, with the host data that
     * was set on it (spawn options or tasync_coroutine_set_host_data).
     * Ownership rule: the core uses a coroutine's host data (the enter and
     * leave hooks, this call) until this call; the host keeps it valid until
     * then, or takes it back first with tasync_coroutine_set_host_data(co,
     * NULL), after which this is not called for it. Host data must not
     * live in a host object whose lifetime the core does not control (a
     * garbage-collected object may be freed while the coroutine record
     * still points at it). */
    void (*coroutine_free)(void *host_data, tasync_coroutine_t *co, void *co_data);

    /* Receives each warning the rules ask for: one message without a
     * trailing newline (a multi-line report, such as the tree printed at a
     * deadlock, separates its lines with '\n'). */
    void (*warning)(void *host_data, const char *message);

    /* Fills out with the host's current source location (the user code that
     * is running). Returns 0, or -1 if there is none. */
    int (*capture_location)(void *host_data, tasync_location_t *out);

    /* ------------------------------------------------------ ABI 1.2 */

    /* Asked by tasync_coroutine_suspendable for the running coroutine co
     * (never NULL; co_data is its host data): nonzero when a blocking
     * function of an extension may suspend co now instead of blocking the
     * thread. A PHP host refuses for a coroutine without PHP frames of its
     * own, while an exception is pending, while the engine forbids switching
     * (destructors run by the garbage collector) and once the request is
     * ending. NULL: always allowed. Since: ABI 1.2. */
    int (*may_suspend)(void *host_data, tasync_coroutine_t *co, void *co_data);

    /* Called by tasync_wait_end, in the coroutine co that waited, with the
     * code its wait returned and the error it gave (this member takes that
     * reference; error may be NULL). Does what the host does after the
     * waits of its own blocking functions. The core has applied rule C18
     * first: for a cancellation (rc == -ECANCELED) it made the cancellation
     * pending again for the next suspension and passes error NULL, unless
     * the coroutine already failed a call for this same cancellation and
     * went on, in which case it passes the cancellation, which the host
     * raises. Deferred work of the host runs; a coroutine the host must
     * unwind (PHP: exit() or a fatal error elsewhere ends the request) gets
     * the host's error raised. Returns TASYNC_EHOST_RAISED once it raised
     * an error in co, otherwise rc. NULL: the core's default (see
     * tasync_wait_end). Since: ABI 1.2. */
    int (*wait_end)(void *host_data, tasync_coroutine_t *co, void *co_data, int rc, void *error);

    /* Since: ABI 1.2. When set, receives each warning instead of `warning`,
     * with the location it is about: the user code that was running when
     * it was raised, or when none was (a scope released by the host outside
     * user code, the end of the program), the most relevant location the
     * core knows (where that scope was created); where->file is NULL when
     * there is none. A host reports it at that location (PHP: "in FILE on
     * line N") rather than at wherever it happens to print it. */
    void (*warning_at)(void *host_data, const char *message, const tasync_location_t *where);

    /* Writes the warning for a stall (rule C25) into buf: one or more
     * lines, each ending in '\n', NUL-terminated within len; returns its
     * length (less than len), or 0 to let the core write its own text.
     * Called on the WATCHDOG'S THREAD while the runtime's thread is stalled
     * (it may resume at any moment): the member must not allocate, take
     * locks, call into the runtime or write to anything the runtime's thread
     * uses, and the host state it reads may change or be freed while it
     * reads it, so it reads defensively (bounded walks, and a copy that
     * cannot fault, such as Linux's process_vm_readv on its own process).
     * info->spawned_at.file is valid (the host keeps it for the runtime's
     * life). The core writes the text only if the runtime made no progress
     * meanwhile. NULL: the core's own text. Since: ABI 1.2. */
    size_t (*stall_report)(void *host_data, const tasync_stall_info_t *info, char *buf, size_t len);
} tasync_host_t;

TASYNC_EXTERN_C_END

#endif /* TASYNC_HOST_H */
