/*
 * tasync/errors.h - error codes.
 *
 * Every function of the ABI that can fail returns an int: 0 (or a count) on
 * success, a negative value on failure. A negative value is either a negated
 * errno (-EINVAL, -ENOMEM, -ECANCELED, ...; the libuv convention) or one of the
 * project-specific codes below, which live in a reserved range far from any
 * errno value: [TASYNC_ERROR_RANGE_LOW, TASYNC_ERROR_RANGE_HIGH].
 *
 * The table TASYNC_ERROR_MAP is the single source for the enum, the names and
 * the messages; it is a macro so that a plugin built from these headers alone
 * can generate its own lookup without linking the core.
 */
#ifndef TASYNC_ERRORS_H
#define TASYNC_ERRORS_H

#include "version.h"

#define TASYNC_ERROR_RANGE_HIGH (-30000)
#define TASYNC_ERROR_RANGE_LOW (-30999)

/* XX(NAME, value, "message"). Values only ever grow downwards at the end. */
#define TASYNC_ERROR_MAP(XX)                                                                       \
    XX(BACKEND_NOT_FOUND, -30001, "backend shared object not found")                               \
    XX(BACKEND_DLOPEN, -30002, "backend shared object could not be loaded")                        \
    XX(BACKEND_NO_ENTRY, -30003, "backend does not export the entry symbol tasync_backend_entry")  \
    XX(BACKEND_NULL_TABLE, -30004, "backend entry returned no table")                              \
    XX(BACKEND_ABI_MAJOR, -30005, "backend was built for another ABI major version")               \
    XX(BACKEND_TABLE_SMALL, -30006, "backend table is smaller than ABI 1.0 requires")              \
    XX(BACKEND_MISSING_OP, -30007, "backend table lacks a required entry")                         \
    XX(BACKEND_INIT, -30008, "backend failed to initialise its loop")                              \
    XX(FAILED, -30009, "the awaited operation failed; the error object says why")                  \
    XX(NOT_IN_COROUTINE, -30010, "operation requires a coroutine context")                         \
    XX(SELF_AWAIT, -30011, "a coroutine cannot await itself")                                      \
    XX(SCOPE_CLOSED, -30012, "scope is closed")                                                    \
    XX(AWAIT_CANCELLED, -30013, "await was cancelled by its cancellation awaitable")               \
    XX(DEADLOCK, -30014, "deadlock: nothing can make progress")                                    \
    XX(WRONG_THREAD, -30015, "object belongs to a runtime of another thread")                      \
    XX(SHUTDOWN, -30016, "runtime is shutting down")                                               \
    XX(SCOPE_DEADLOCK, -30017, "awaiting a scope from within itself or a child scope would deadlock") \
    XX(NOT_CANCELLED, -30018, "operation is allowed only after the scope was cancelled")          \
    XX(BAD_STATE, -30019, "object is in a state that does not allow this operation")            \
    XX(HOST_RAISED, -30020, "the host raised an error in the calling coroutine")                  \
    /* Since ABI 1.3: the backend file or its directory is writable by others. */                 \
    XX(BACKEND_UNSAFE, -30021, "backend shared object may be replaced by others than its owner")     \
    /* Since ABI 1.3: channels, futures and pools (channel.h, future.h, pool.h). */               \
    XX(CHANNEL_CLOSED, -30022, "channel is closed")                                                \
    XX(POOL_CLOSED, -30023, "pool is closed")                                                      \
    XX(FUTURE_COMPLETED, -30024, "future is already completed")                                    \
    XX(SERVICE_UNAVAILABLE, -30025, "service is unavailable: the pool's circuit breaker is inactive")

typedef enum tasync_error_code {
#define TASYNC_ERROR_ENUM_(name, value, msg) TASYNC_E##name = (value),
    TASYNC_ERROR_MAP(TASYNC_ERROR_ENUM_)
#undef TASYNC_ERROR_ENUM_
    TASYNC_E_LAST_ = TASYNC_ERROR_RANGE_LOW
} tasync_error_code_t;

/* Nonzero if err is a project-specific code rather than a negated errno. */
#define TASYNC_IS_PROJECT_ERROR(err) ((err) <= TASYNC_ERROR_RANGE_HIGH && (err) >= TASYNC_ERROR_RANGE_LOW)

TASYNC_EXTERN_C_BEGIN

/*
 * Returns a static, human-readable message for a negative error code (a
 * negated errno or a TASYNC_E* code). Unknown codes give "unknown error".
 * Thread-safe. Since: ABI 1.0.
 */
TASYNC_API const char *tasync_strerror(int err);

/*
 * Returns the static symbolic name of an error code: "ECANCELED",
 * "TASYNC_EDEADLOCK", ... or "UNKNOWN". Thread-safe. Since: ABI 1.0.
 */
TASYNC_API const char *tasync_err_name(int err);

TASYNC_EXTERN_C_END

#endif /* TASYNC_ERRORS_H */
