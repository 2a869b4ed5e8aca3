/*
 * tasync/reactor.h - the reactor side of the ABI: what a backend implements.
 *
 * A backend is a shared object that exports one function,
 * tasync_backend_entry (see backend.h), returning a pointer to a static
 * tasync_backend_t table. The core (or any other host, such as the
 * tasync-conformance tool) drives it through that table only.
 *
 * A backend does only what a reactor alone can do: create, run and destroy
 * a loop, wake it from another thread, tell the time, report fd readiness,
 * and continue a loop in a forked child; optionally, completion-style
 * operations and offloading blocking work to its own threads. Everything
 * else belongs to the core, identically for every backend: timers (one heap
 * whose earliest deadline is the loop_run timeout), signals (one
 * process-wide registry chained with handlers already installed, delivered
 * through an fd the core watches for readiness) and child exits (pidfds
 * watched for readiness, or SIGCHLD through that registry).
 *
 * ABI 1.2 retired the table's timer_*, signal_open and child_open members:
 * no host calls them any more, a backend leaves them NULL, and a backend
 * built for ABI 1.0 or 1.1 that fills them still loads (the slots stay in
 * the table, so its layout is unchanged). A backend that must also load in
 * a core older than 1.2 keeps filling them.
 *
 * What every backend guarantees (the contract the conformance tool checks):
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
 *     the fd satisfies, every loop_run reports it again. A report is a hint,
 *     not a promise that the operation will not block: readiness may be
 *     spurious (the fd was ready when the kernel looked, and another reader
 *     or writer of it acted before the callback ran; io_uring posts poll
 *     completions ahead of loop_run). Callers use non-blocking fds and wait
 *     again on EAGAIN, as with libuv's uv_poll. (Since: ABI 1.2, written
 *     down; every backend of ABI 1.0 and 1.1 could already do it.)
 *  G6 (ABI 1.0 and 1.1 only: timers. Since ABI 1.2 the core keeps its own
 *     and never calls timer_open/timer_start/timer_stop.)
 *  G7 loop_run(timeout) returns after dispatching the events that were ready
 *     (timeout 0 never blocks), when a wakeup arrives, or when the timeout
 *     expires. A wakeup sent while the loop is not waiting makes the next
 *     loop_run return promptly. It may return early without events
 *     (spurious wakeups are allowed); callers loop. It may end a bounded
 *     wait up to its clock's unit late (a millisecond for epoll) unless it
 *     says TASYNC_CAP_PRECISE_TIMEOUT.
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
 *     any other way, it calls loop_fork on the thread that forked, outside
 *     loop_run (a child forked by a callback does not return into that
 *     loop_run: it execs or exits, since the rest of the run is the
 *     parent's); the loop
 *     then has kernel objects of its own, the parent's loop is untouched,
 *     and every io handle stays as it was, interests included. Completion
 *     ops in flight at the fork finish with -ECANCELED at the next loop_run
 *     (the parent's copies of them run on). On failure the loop may only be
 *     abandoned, not destroyed. A loop the child does not fork must be
 *     abandoned too: loop_destroy would undo the parent's registrations.
 */
#ifndef TASYNC_REACTOR_H
#define TASYNC_REACTOR_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "version.h"

TASYNC_EXTERN_C_BEGIN

/* A loop, as the backend defines it. Opaque to everyone else. Since: ABI 1.0. */
typedef struct tasync_loop tasync_loop_t;
/* A handle (an io watch; before ABI 1.2 also a timer, signal or child
 * watch), opaque. Since: ABI 1.0. */
typedef struct tasync_handle tasync_handle_t;

/* Readiness events for io handles; the values never change. Since: ABI 1.0. */
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

/* Capability bits advertised in tasync_backend_t.capabilities. Since: ABI
 * 1.0 (each bit since the version it names). */
typedef enum tasync_capability {
    /* op_submit/op_cancel are implemented for the opcodes in op_mask. */
    TASYNC_CAP_COMPLETION = 1,
    /* Unused since ABI 1.3 (a backend does not set it, the core ignores it):
     * work_submit/work_cancel are implemented (the backend has a thread
     * pool). The core runs offloaded work on its own pool on every backend. */
    TASYNC_CAP_OFFLOAD = 2,
    /* Readiness of regular files is meaningful (it is not for epoll). */
    TASYNC_CAP_FILE_READINESS = 4,
    /* Child exits are watched through pidfds. Since ABI 1.2 a backend does
     * not set it (the core watches children) and the core ignores it in a
     * table; tasync_runtime_backend_info reports it when the core's own
     * child watches use pidfds (the kernel has pidfd_open). */
    TASYNC_CAP_PIDFD = 8,
    /* Io handles report TASYNC_IO_HANGUP and TASYNC_IO_ERROR. Without it
     * (libev folds them into its read/write events), a hang-up shows as
     * READABLE and an error condition as the events the handle wants, so
     * that the caller's next read or write meets the end of file or the
     * error itself. Since: ABI 1.1. */
    TASYNC_CAP_HANGUP = 16,
    /* TASYNC_IO_PRIORITY may be requested. Without it, io_start refuses an
     * interest that includes it with -ENOTSUP. Since: ABI 1.1. */
    TASYNC_CAP_PRIORITY = 32,
    /* loop_run ends a bounded wait within microseconds of its timeout
     * (io_uring's timespec waits), not rounded to a millisecond as
     * epoll_wait, libuv's timers and libev's minimum wait are. Without it,
     * the core (on Linux) arms a timerfd of its own for the deadline and
     * watches it with io_open, so that a delay of 300 us ends after about
     * 300 us rather than 1-2 ms. Since: ABI 1.2. */
    TASYNC_CAP_PRECISE_TIMEOUT = 64
} tasync_capability_t;

/* Completion-style operation codes. Values never change; new ones append.
 * Since: ABI 1.0. */
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
    TASYNC_OP_OPENAT = 9   /* openat(fd as dirfd, buf as path, op_flags, mode) -> new fd */
} tasync_opcode_t;

/* How many opcodes these headers define (one past the highest): it grows
 * when an opcode is appended, so a value seen at run time may be larger
 * than a caller's build knows. Since: ABI 1.2. */
#define TASYNC_OPCODE_COUNT 10
/* The name ABI 1.0/1.1 gave it (then an enumerator); kept for sources
 * that use it. Since: ABI 1.0. */
#define TASYNC_OP_COUNT_ TASYNC_OPCODE_COUNT

/* The op_mask bit of an opcode. Since: ABI 1.0. */
#define TASYNC_OP_BIT(opcode) (UINT64_C(1) << (opcode))
/* op_flags of TASYNC_OP_FSYNC: only the data (fdatasync). Since: ABI 1.0. */
#define TASYNC_FSYNC_DATASYNC 1u
/* offset value meaning "use and advance the file position" (read/write).
 * Since: ABI 1.0. */
#define TASYNC_OFFSET_CURRENT (-1)

typedef struct tasync_op tasync_op_t;
/* Called exactly once when an op has finished (G9). Since: ABI 1.0. */
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

/* Called when an fd is ready: status 0 and revents set, or status -errno
 * (e.g. -EBADF), after which the handle is stopped until io_start again.
 * Since: ABI 1.0. */
typedef void (*tasync_io_cb)(tasync_handle_t *handle, void *data, int status, unsigned revents);
/* The callbacks of the retired timer, signal and child watches (the types
 * of the unused table slots). Since: ABI 1.0; unused since ABI 1.2. */
typedef void (*tasync_timer_cb)(tasync_handle_t *handle, void *data);
typedef void (*tasync_signal_cb)(tasync_handle_t *handle, void *data, int signum);
typedef void (*tasync_child_cb)(tasync_handle_t *handle, void *data, int pid, int exit_status, int term_signal);

/* Options for loop_create. Members only grow at the end: a backend reads
 * one only when size covers it (TASYNC_TABLE_HAS). Since: ABI 1.0. */
typedef struct tasync_loop_options {
    uint32_t size;        /* sizeof(tasync_loop_options_t) */
    uint32_t flags;       /* reserved, 0 */
    uint32_t queue_depth; /* hint for submission queues (io_uring entries); 0 = default */
    uint32_t reserved0;
    char *errbuf;         /* where loop_create writes a reason on failure, may be NULL */
    size_t errbuf_size;
} tasync_loop_options_t;

/*
 * The backend table. TASYNC_BACKEND_ENTRIES (below) says which function
 * members are required, optional or unused; an optional member is NULL when
 * absent and, where a capability bit names it, announced by that bit.
 * Members are only ever appended. Since: ABI 1.0.
 */
typedef struct tasync_backend {
    /* sizeof(tasync_backend_t) as the backend was built. Since: ABI 1.0. */
    uint32_t size;
    /* TASYNC_ABI_VERSION the backend was built with. Since: ABI 1.0. */
    uint32_t abi_version;
    /* Short name, e.g. "uv". Since: ABI 1.0. */
    const char *name;
    /* Backend and library version, e.g. "libuv 1.44.2". Since: ABI 1.0. */
    const char *version;
    /* tasync_capability_t bits. Since: ABI 1.0. */
    uint64_t capabilities;
    /* TASYNC_OP_BIT(opcode) for each opcode op_submit supports. Since: ABI 1.0. */
    uint64_t op_mask;

    /* Creates a loop. On failure returns -errno/TASYNC_E* and writes a reason
     * into opts->errbuf when given. opts may be NULL (defaults), or come from
     * an older host (shorter opts->size). Required. Since: ABI 1.0. */
    int (*loop_create)(const tasync_loop_options_t *opts, tasync_loop_t **out);
    /* Destroys a loop and every handle still open on it (G8). NULL is a
     * no-op. Required. Since: ABI 1.0. */
    void (*loop_destroy)(tasync_loop_t *loop);
    /* Waits at most timeout_ns (negative: no limit; 0: do not block) and
     * dispatches every ready event (G7). Returns the number of callbacks it
     * made (0 when it returned for a wakeup, the timeout or nothing; hosts
     * may use it only as a hint), or a negative error after which the loop
     * is unusable; -EINTR is not an error. Required. Since: ABI 1.0 (the
     * meaning of a positive value: ABI 1.2). */
    int (*loop_run)(tasync_loop_t *loop, int64_t timeout_ns);
    /* Makes a concurrent or future loop_run return soon. Thread-safe;
     * async-signal-safe is not required. 0 or -errno. Required.
     * Since: ABI 1.0. */
    int (*loop_wakeup)(tasync_loop_t *loop);
    /* Monotonic clock in nanoseconds (CLOCK_MONOTONIC or one that advances
     * like it): the clock of loop_run timeouts. Required. Since: ABI 1.0. */
    uint64_t (*loop_now)(tasync_loop_t *loop);

    /* Unused since ABI 1.2 (NULL in a new backend, never called): ABI 1.0
     * timers, open/(re)start/stop. Since: ABI 1.0. */
    int (*timer_open)(tasync_loop_t *loop, tasync_timer_cb cb, void *data, tasync_handle_t **out);
    int (*timer_start)(tasync_handle_t *timer, uint64_t timeout_ns, uint64_t repeat_ns);
    int (*timer_stop)(tasync_handle_t *timer);

    /* Readiness: opens a handle for fd with no interest yet (-EBADF for a
     * closed fd, G10). Required. Since: ABI 1.0. */
    int (*io_open)(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out);
    /* Sets the interest (tasync_io_event_t bits; 0 stops), see G4 and G5.
     * Returns 0, -ENOTSUP for TASYNC_IO_PRIORITY without
     * TASYNC_CAP_PRIORITY, or another negative error (the fd cannot be
     * watched). Required. Since: ABI 1.0. */
    int (*io_start)(tasync_handle_t *io, unsigned events);
    /* Stops reporting until io_start again. Returns 0 or a negative error.
     * Required. Since: ABI 1.0. */
    int (*io_stop)(tasync_handle_t *io);

    /* Closes any handle (G3). NULL is a no-op. Required. Since: ABI 1.0. */
    void (*handle_close)(tasync_handle_t *handle);

    /* Unused since ABI 1.2 (NULL in a new backend, never called): ABI 1.0
     * signal and child-exit watches. Since: ABI 1.0. */
    int (*signal_open)(tasync_loop_t *loop, int signum, tasync_signal_cb cb, void *data, tasync_handle_t **out);
    int (*child_open)(tasync_loop_t *loop, int pid, tasync_child_cb cb, void *data, tasync_handle_t **out);

    /* TASYNC_CAP_COMPLETION: submits a completion operation (G9). Returns 0
     * (the callback will run exactly once), -EINVAL for an opcode not in
     * op_mask, or another negative error; no callback runs after an error.
     * Optional. Since: ABI 1.0. */
    int (*op_submit)(tasync_loop_t *loop, tasync_op_t *op);
    /* TASYNC_CAP_COMPLETION: asks an in-flight op to finish with -ECANCELED
     * (G9). Returns 0 when the request was made, or -ENOENT / -EALREADY when
     * the op is not in flight on this loop or is already finishing; in every
     * case the op's callback runs exactly once, never inside op_cancel.
     * Optional. Since: ABI 1.0. */
    int (*op_cancel)(tasync_loop_t *loop, tasync_op_t *op);

    /* Unused since ABI 1.3 (NULL in a new backend, never called): ABI
     * 1.0-1.2 work on the backend's own thread pool. The core's pool runs
     * offloaded work on every backend: it grows on demand and retires idle
     * threads, survives fork() and fails one job, not the process, when no
     * thread can be started (libuv's pool aborts then). Since: ABI 1.0. */
    int (*work_submit)(tasync_loop_t *loop, tasync_work_t *work);
    int (*work_cancel)(tasync_loop_t *loop, tasync_work_t *work);

    /* G11: in a child after fork(), gives the loop kernel objects of its
     * own. 0, or a negative error. Optional (check with TASYNC_TABLE_HAS).
     * Since: ABI 1.1. */
    int (*loop_fork)(tasync_loop_t *loop);
} tasync_backend_t;

/*
 * Every function member of tasync_backend_t, in table order, with its role
 * and the ABI minor version that added it, for whatever validates a table
 * (the core's loader and tasync-conformance use it): X(member, role, since)
 * where role is
 *   REQUIRED  a table without it is refused;
 *   OPTIONAL  may be NULL (then absent), see the member's comment;
 *   UNUSED    a slot no host calls any more (NULL in a new backend; an
 *             older backend's functions there are ignored): the timers,
 *             signal and child watches since ABI 1.2, work since ABI 1.3.
 * Roles as values: TASYNC_ENTRY_REQUIRED and so on. Since: ABI 1.2.
 */
#define TASYNC_BACKEND_ENTRIES(X) \
    X(loop_create, REQUIRED, 0)   \
    X(loop_destroy, REQUIRED, 0)  \
    X(loop_run, REQUIRED, 0)      \
    X(loop_wakeup, REQUIRED, 0)   \
    X(loop_now, REQUIRED, 0)      \
    X(timer_open, UNUSED, 0)      \
    X(timer_start, UNUSED, 0)     \
    X(timer_stop, UNUSED, 0)      \
    X(io_open, REQUIRED, 0)       \
    X(io_start, REQUIRED, 0)      \
    X(io_stop, REQUIRED, 0)       \
    X(handle_close, REQUIRED, 0)  \
    X(signal_open, UNUSED, 0)     \
    X(child_open, UNUSED, 0)      \
    X(op_submit, OPTIONAL, 0)     \
    X(op_cancel, OPTIONAL, 0)     \
    X(work_submit, UNUSED, 0)     \
    X(work_cancel, UNUSED, 0)     \
    X(loop_fork, OPTIONAL, 1)

/* The roles of TASYNC_BACKEND_ENTRIES. Since: ABI 1.2. */
typedef enum tasync_entry_role {
    TASYNC_ENTRY_REQUIRED = 0,
    TASYNC_ENTRY_OPTIONAL = 1,
    TASYNC_ENTRY_UNUSED = 2
} tasync_entry_role_t;

/* Size of an ABI 1.0 table (through child_open): a smaller table is
 * refused. Since: ABI 1.0. */
#define TASYNC_BACKEND_REQUIRED_SIZE (offsetof(tasync_backend_t, child_open) + sizeof(void *))

/* True when a table (or an options struct) of the given size has the
 * member (appended later). Since: ABI 1.0. */
#define TASYNC_TABLE_HAS(table, type, member) \
    ((size_t)(table)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

TASYNC_EXTERN_C_END

#endif /* TASYNC_REACTOR_H */
