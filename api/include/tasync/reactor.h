/*
 * tasync/reactor.h - the reactor side of the ABI: what a backend implements.
 *
 * A backend is a shared object that exports one function,
 * tasync_backend_entry (see backend.h), returning a pointer to a static
 * tasync_backend_t table. The core (or any other host, such as the
 * tasync-conformance tool) drives it through that table only.
 *
 * What every backend guarantees (the contract the conformance suite checks):
 *
 *  G1 Threading. A loop and its handles are used from one thread at a time:
 *     the thread that created the loop. The only exception is loop_wakeup,
 *     which is thread-safe. Different loops on different threads are
 *     independent; a backend keeps no mutable global state that two loops
 *     share without synchronisation.
 *  G2 Callbacks run only inside loop_run, on the loop's thread. A callback may
 *     call any table entry for the same loop, including closing the handle
 *     it was called for and opening new handles, except loop_run (it does
 *     not nest) and loop_destroy (call it after loop_run has returned).
 *  G3 Closing. After handle_close(h) returns, no callback is ever invoked for
 *     h, even if its event was already pending in the same loop_run. The
 *     backend may release the memory later (e.g. libuv's asynchronous close),
 *     but h must not be used again by the caller.
 *  G4 One io handle per fd. The caller never opens two io handles on the same
 *     fd in one loop. Closing the fd while its handle is open is allowed: the
 *     backend must not crash and stops reporting events for it once the caller
 *     calls handle_close; it may report an error status (-EBADF) before that.
 *  G5 Readiness is level-triggered: while an io handle has an interest that
 *     the fd satisfies, every loop_run reports it again.
 *  G6 Timers never fire early. A timer started with timeout T fires at the
 *     first loop_run that happens at or after now()+T. A repeating timer
 *     re-arms from its scheduled time, not from when it ran. Timers that are
 *     due in the same loop_run fire in deadline order; ties in start order.
 *  G7 loop_run(timeout) returns after dispatching the events that were ready
 *     (timeout 0 never blocks), when a wakeup arrives, or when the timeout
 *     expires. A wakeup sent while the loop is not waiting makes the next
 *     loop_run return promptly. It may return early without events
 *     (spurious wakeups are allowed); callers loop.
 *  G8 loop_destroy may be called with handles still open: it releases them
 *     all without invoking any callback, and leaks nothing.
 *  G9 Completion operations (optional) call their callback exactly once when
 *     op_submit returned 0, never when it returned an error. op_cancel makes
 *     an in-flight op finish soon with -ECANCELED, unless it already
 *     completed, in which case its real result is delivered.
 *  G10 Errors are negative errno values. No C++ exception and no longjmp
 *     crosses the table.
 *  G11 Fork (optional, ABI 1.1). In a child process made by fork(), a loop
 *     created before the fork shares its kernel objects (epoll set, ring,
 *     eventfd) with the parent's copy. Before the child uses such a loop in
 *     any other way, it calls loop_fork on the thread that forked; the loop
 *     then has kernel objects of its own, the parent's loop is untouched,
 *     and every handle stays as it was: io interests, timers with their
 *     deadlines, signal and child watches (a child watch of a process that
 *     is not the child's own child reports exit_status -1 when it exits).
 *     Completion ops in flight at the fork finish with -ECANCELED at the
 *     next loop_run (the parent's copies of them run on). On failure the
 *     loop may only be abandoned, not destroyed. A loop the child does not
 *     fork must be abandoned too: loop_destroy would undo the parent's
 *     registrations.
 */
#ifndef TASYNC_REACTOR_H
#define TASYNC_REACTOR_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "version.h"

TASYNC_EXTERN_C_BEGIN

/* A loop, as the backend defines it. Opaque to everyone else. */
typedef struct tasync_loop tasync_loop_t;
/* A handle (timer, io watch, signal watch, child watch), opaque. */
typedef struct tasync_handle tasync_handle_t;

/* Readiness events for io handles; the values never change. */
typedef enum tasync_io_event {
    TASYNC_IO_READABLE = 1,
    TASYNC_IO_WRITABLE = 2,
    /* Reported only: the peer hung up (POLLHUP / EPOLLRDHUP). */
    TASYNC_IO_HANGUP = 4,
    /* Reported only: an error condition is pending on the fd (POLLERR). */
    TASYNC_IO_ERROR = 8,
    /* Urgent / priority data (POLLPRI). Requestable. */
    TASYNC_IO_PRIORITY = 16
} tasync_io_event_t;

/* Capability bits advertised in tasync_backend_t.capabilities. */
typedef enum tasync_capability {
    /* op_submit/op_cancel are implemented for the opcodes in op_mask. */
    TASYNC_CAP_COMPLETION = 1,
    /* work_submit/work_cancel are implemented (the backend has a thread pool). */
    TASYNC_CAP_OFFLOAD = 2,
    /* Readiness of regular files is meaningful (it is not for epoll). */
    TASYNC_CAP_FILE_READINESS = 4,
    /* Child watches use pidfd (no SIGCHLD handler is installed). */
    TASYNC_CAP_PIDFD = 8,
    /* Io handles report TASYNC_IO_HANGUP and TASYNC_IO_ERROR. Without it
     * (libev folds them into its read/write events), a hang-up shows as
     * READABLE and an error condition as the events the handle wants, so
     * that the caller's next read or write meets the end of file or the
     * error itself. */
    TASYNC_CAP_HANGUP = 16,
    /* TASYNC_IO_PRIORITY may be requested. Without it, io_start refuses an
     * interest that includes it with -ENOTSUP. */
    TASYNC_CAP_PRIORITY = 32
} tasync_capability_t;

/* Completion-style operation codes. Values never change; new ones append. */
typedef enum tasync_opcode {
    TASYNC_OP_NOP = 0,
    TASYNC_OP_READ = 1,    /* read(fd, buf, len) or pread at offset */
    TASYNC_OP_WRITE = 2,   /* write(fd, buf, len) or pwrite at offset */
    TASYNC_OP_RECV = 3,    /* recv(fd, buf, len, op_flags) */
    TASYNC_OP_SEND = 4,    /* send(fd, buf, len, op_flags) */
    TASYNC_OP_ACCEPT = 5,  /* accept4(fd, buf as sockaddr or NULL, &addrlen, op_flags) -> new fd */
    TASYNC_OP_CONNECT = 6, /* connect(fd, buf as sockaddr, addrlen) */
    TASYNC_OP_CLOSE = 7,   /* close(fd) */
    TASYNC_OP_FSYNC = 8,   /* fsync(fd), or fdatasync when op_flags has TASYNC_FSYNC_DATASYNC */
    TASYNC_OP_OPENAT = 9,  /* openat(fd as dirfd, buf as path, op_flags, mode) -> new fd */
    TASYNC_OP_COUNT_ = 10
} tasync_opcode_t;

#define TASYNC_OP_BIT(opcode) (UINT64_C(1) << (opcode))
#define TASYNC_FSYNC_DATASYNC 1u
/* offset value meaning "use and advance the file position" (read/write). */
#define TASYNC_OFFSET_CURRENT (-1)

typedef struct tasync_op tasync_op_t;
typedef void (*tasync_op_cb)(tasync_op_t *op);

/*
 * A completion-style operation. The submitter owns the memory and keeps it,
 * and everything it points to, valid and unmoved from op_submit until the
 * callback has run. Since: ABI 1.0.
 */
struct tasync_op {
    uint32_t size;     /* sizeof(tasync_op_t) as the submitter knows it */
    uint16_t opcode;   /* tasync_opcode_t */
    uint16_t flags;    /* reserved, 0 */
    int32_t fd;        /* target fd; dirfd for OPENAT (AT_FDCWD allowed) */
    int32_t result;    /* out: >= 0 on success (bytes, new fd, 0), -errno on failure */
    void *buf;         /* data buffer; sockaddr for ACCEPT/CONNECT; path for OPENAT */
    uint64_t len;      /* buffer length; sockaddr length for CONNECT */
    int64_t offset;    /* file offset for READ/WRITE, or TASYNC_OFFSET_CURRENT */
    uint32_t op_flags; /* MSG_* for RECV/SEND, SOCK_* for ACCEPT, O_* for OPENAT */
    uint32_t mode;     /* mode for OPENAT */
    uint32_t addrlen;  /* in/out sockaddr length for ACCEPT */
    uint32_t reserved0;
    tasync_op_cb cb;   /* called exactly once on the loop thread when done */
    void *data;        /* for the submitter */
    void *internal[4]; /* owned by whoever executes the op while in flight */
};

typedef struct tasync_work tasync_work_t;

/*
 * Blocking work run on a worker thread. The submitter owns the memory until
 * done has run. Since: ABI 1.0.
 */
struct tasync_work {
    uint32_t size;                         /* sizeof(tasync_work_t) */
    uint32_t flags;                        /* reserved, 0 */
    void (*run)(tasync_work_t *work);      /* on a worker thread */
    void (*done)(tasync_work_t *work, int status); /* loop thread; 0 or -ECANCELED */
    void *data;                            /* for the submitter */
    void *internal[4];                     /* owned by the executor while queued */
};

/* Called when a timer expires. */
typedef void (*tasync_timer_cb)(tasync_handle_t *handle, void *data);
/* Called when an fd is ready: status 0 and revents set, or status -errno
 * (e.g. -EBADF), after which the handle is stopped until io_start again. */
typedef void (*tasync_io_cb)(tasync_handle_t *handle, void *data, int status, unsigned revents);
/* Called each time the signal is delivered (coalesced deliveries may be reported once). */
typedef void (*tasync_signal_cb)(tasync_handle_t *handle, void *data, int signum);
/* Called once when the child exits: exit_status as for WEXITSTATUS,
 * term_signal nonzero if killed by a signal; exit_status -1 if someone else
 * reaped the child first. */
typedef void (*tasync_child_cb)(tasync_handle_t *handle, void *data, int pid, int exit_status, int term_signal);

/* Options for loop_create. Since: ABI 1.0. */
typedef struct tasync_loop_options {
    uint32_t size;        /* sizeof(tasync_loop_options_t) */
    uint32_t flags;       /* reserved, 0 */
    uint32_t queue_depth; /* hint for submission queues (io_uring entries); 0 = default */
    uint32_t reserved0;
    char *errbuf;         /* where loop_create writes a reason on failure, may be NULL */
    size_t errbuf_size;
} tasync_loop_options_t;

/*
 * The backend table. Members up to and including child_open are required in
 * ABI 1.0; the rest are optional (NULL when absent) and announced by
 * capability bits. New members are only ever appended.
 */
typedef struct tasync_backend {
    uint32_t size;         /* sizeof(tasync_backend_t) as the backend was built */
    uint32_t abi_version;  /* TASYNC_ABI_VERSION the backend was built with */
    const char *name;      /* short name, e.g. "uv" */
    const char *version;   /* backend and library version, e.g. "uv 1.44.2" */
    uint64_t capabilities; /* tasync_capability_t bits */
    uint64_t op_mask;      /* TASYNC_OP_BIT(opcode) for each opcode op_submit supports */

    /* Creates a loop. On failure returns -errno/TASYNC_E* and writes a reason
     * into opts->errbuf when given. */
    int (*loop_create)(const tasync_loop_options_t *opts, tasync_loop_t **out);
    /* Destroys a loop and every handle still open on it (G8). NULL is a no-op. */
    void (*loop_destroy)(tasync_loop_t *loop);
    /* Waits at most timeout_ns (negative: no limit; 0: do not block) and
     * dispatches every ready event (G7). Returns >= 0 or a negative error. */
    int (*loop_run)(tasync_loop_t *loop, int64_t timeout_ns);
    /* Makes a concurrent or future loop_run return soon. Thread-safe;
     * async-signal-safe is not required. */
    int (*loop_wakeup)(tasync_loop_t *loop);
    /* Monotonic clock in nanoseconds, the clock timers use. */
    uint64_t (*loop_now)(tasync_loop_t *loop);

    /* Timers: open a stopped timer, (re)start it, stop it. Restarting a
     * running timer replaces its deadline. repeat_ns 0 means one-shot. */
    int (*timer_open)(tasync_loop_t *loop, tasync_timer_cb cb, void *data, tasync_handle_t **out);
    int (*timer_start)(tasync_handle_t *timer, uint64_t timeout_ns, uint64_t repeat_ns);
    int (*timer_stop)(tasync_handle_t *timer);

    /* Readiness: open a handle for fd (no interest yet), set the interest
     * (tasync_io_event_t bits; 0 stops), stop. See G4 and G5. */
    int (*io_open)(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out);
    int (*io_start)(tasync_handle_t *io, unsigned events);
    int (*io_stop)(tasync_handle_t *io);

    /* Closes any handle (G3). NULL is a no-op. */
    void (*handle_close)(tasync_handle_t *handle);

    /* Starts watching a signal; active until closed. Several handles may
     * watch the same signal, in one loop or in loops of other threads;
     * each is called for each delivery (coalesced ones may count once). */
    int (*signal_open)(tasync_loop_t *loop, int signum, tasync_signal_cb cb, void *data, tasync_handle_t **out);
    /* Starts watching a child process of this process; the backend reaps it
     * and calls cb once. -ECHILD if pid is not a child. */
    int (*child_open)(tasync_loop_t *loop, int pid, tasync_child_cb cb, void *data, tasync_handle_t **out);

    /* --- optional (ABI 1.0), see capabilities --- */

    /* TASYNC_CAP_COMPLETION: submit / cancel a completion operation (G9). */
    int (*op_submit)(tasync_loop_t *loop, tasync_op_t *op);
    int (*op_cancel)(tasync_loop_t *loop, tasync_op_t *op);

    /* TASYNC_CAP_OFFLOAD: run work on the backend's thread pool. work_cancel
     * succeeds (0, done gets -ECANCELED) only if the work has not started;
     * otherwise -EBUSY. */
    int (*work_submit)(tasync_loop_t *loop, tasync_work_t *work);
    int (*work_cancel)(tasync_loop_t *loop, tasync_work_t *work);

    /* --- optional, since ABI 1.1 (check with TASYNC_TABLE_HAS) --- */

    /* G11: in a child after fork(), gives the loop kernel objects of its
     * own. 0, or a negative error (e.g. -EBUSY: work on the backend's
     * thread pool was in flight and cannot be finished in the child). */
    int (*loop_fork)(tasync_loop_t *loop);
} tasync_backend_t;

/* Size of the ABI 1.0 required part: a smaller table is refused. */
#define TASYNC_BACKEND_REQUIRED_SIZE (offsetof(tasync_backend_t, child_open) + sizeof(void *))

/* True when a table of the given size has the member (appended later). */
#define TASYNC_TABLE_HAS(table, type, member) \
    ((size_t)(table)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

TASYNC_EXTERN_C_END

#endif /* TASYNC_REACTOR_H */
