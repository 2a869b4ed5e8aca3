/*
 * io/wait.h - the I/O floor of transparent concurrency (docs/php.md, rule
 * C18): blocking PHP functions called inside a coroutine suspend only that
 * coroutine. Every hook family of io/ waits through these functions.
 *
 * The rule every hook follows: when no runtime exists, or the caller is
 * not a PHP coroutine (the main flow is one, rule C3), or the engine
 * forbids switching here, PHP's own function runs unchanged. Otherwise the
 * hook keeps PHP's semantics (return values, warnings, timeouts) and only
 * replaces the blocking wait by a suspension of the calling coroutine.
 *
 * Still blocking inside coroutines (PHP's own code runs): TLS streams of an
 * ext/openssl whose layout is unknown, proc_open's fork where posix_spawn
 * cannot do it, metadata calls on local disks (by choice: the kernel's
 * caches serve them; async.file_offload=always changes it), and touch,
 * chmod, chown, chgrp, realpath, glob, readlink, symlink, link, tempnam and
 * disk_free_space everywhere.
 */
#ifndef ASYNC_IO_WAIT_H
#define ASYNC_IO_WAIT_H

#include "runtime/globals.h"

#include <sys/time.h>

/*
 * The coroutine that may suspend in a hooked function now, or NULL when
 * PHP's blocking behaviour must be kept: no runtime, not inside a PHP
 * coroutine, an exception pending, or fiber switches blocked by the engine.
 */
tasync_coroutine_t *async_io_coroutine(void);

/* How a wait of a hooked function ended. */
typedef enum async_io_status {
	ASYNC_IO_READY = 0,     /* the fd is ready / the work is done */
	ASYNC_IO_TIMEOUT,       /* the deadline passed first */
	ASYNC_IO_CANCELLED,     /* the coroutine was cancelled: the call fails as
	                         * documented; the cancellation is pending again
	                         * (tasync_coroutine_repend_cancellation) and is
	                         * thrown at the next suspension point */
	ASYNC_IO_CLOSED,        /* the fd was forgotten: its stream is closing */
	ASYNC_IO_ABORTED,       /* an exception is pending: the request unwinds,
	                         * or a cancellation the coroutine already saw
	                         * fail a call is thrown now */
	ASYNC_IO_UNSUPPORTED,   /* the runtime cannot wait on this fd: fall back
	                         * to PHP's own blocking code */
} async_io_status;

/*
 * After a core wait returned rc (and err, whose reference this takes): the
 * C18 treatment of a cancellation (see io/wait.c), the safe point, the
 * request's abort. ASYNC_IO_ABORTED means an exception is pending.
 */
async_io_status async_io_after_wait(int rc, void *err);

/* tasync_host_t.may_suspend and .wait_end (ABI 1.2), for other extensions:
 * members of the host table the module assembles. */
int async_host_may_suspend(void *hd, tasync_coroutine_t *co, void *co_data);
int async_host_wait_end(void *hd, tasync_coroutine_t *co, void *co_data, int rc, void *error);

/* Absolute deadline on the runtime's clock for a PHP timeval timeout;
 * 0 = none (NULL or negative tv_sec, PHP's "no timeout"). */
uint64_t async_io_deadline(const struct timeval *tv);
/* The same for seconds and microseconds (both >= 0); 0 beyond any wait
 * worth a deadline (31 years). */
uint64_t async_io_deadline_in(zend_long sec, zend_long usec);

/* Waits until fd is ready for events (TASYNC_IO_* bits) or the deadline
 * (0 = none) passes. Call only when async_io_coroutine() is not NULL. */
async_io_status async_io_wait_fd(int fd, unsigned events, uint64_t deadline, unsigned *revents);

/* Suspends until aw completes or the deadline passes. */
async_io_status async_io_await(tasync_awaitable_t *aw, uint64_t deadline);

/* Runs fn(data) on the runtime's thread pool while the coroutine waits.
 * fn must not touch PHP (no emalloc, no zvals). ASYNC_IO_READY once it ran;
 * on ASYNC_IO_CANCELLED / ABORTED it has not run or has run to its end. */
async_io_status async_io_offload(void (*fn)(void *data), void *data);

/*
 * When a call finds no descriptor left (EMFILE, ENFILE; see io/wait.c):
 * async_io_fd_shortage(err) tells such an error; async_io_fd_shortage_now()
 * whether the process is out of them now (PHP's connects report no error
 * code when socket() fails). async_io_fd_shortage_wait() suspends the
 * coroutine until PHP closes a descriptor or the backoff passes (READY: try
 * again), or the deadline (0: none) passes (TIMEOUT). Every close async.so
 * sees calls async_io_fd_released(); a call that got its descriptor after
 * waiting calls async_io_fd_obtained(), which restarts the backoff.
 */
bool async_io_fd_shortage(int err);
bool async_io_fd_shortage_now(void);
async_io_status async_io_fd_shortage_wait(uint64_t deadline);
void async_io_fd_released(void);
void async_io_fd_obtained(void);

/*
 * A call that failed at once without suspending where it cannot suspend
 * (its stream is being closed by another coroutine) makes its coroutine
 * yield at the engine's next interrupt check, after PHP's call returned:
 * a loop of such calls lets the others run and its pending cancellation
 * be thrown. No-op outside a PHP coroutine.
 */
void async_io_yield_soon(void);

/* The module's MINIT, RSHUTDOWN (before the runtime goes) and MSHUTDOWN. */
void async_io_wait_startup(void);
void async_io_wait_request_shutdown(void);
void async_io_wait_shutdown(void);

#endif /* ASYNC_IO_WAIT_H */
