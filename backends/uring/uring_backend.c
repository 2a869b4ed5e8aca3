/*
 * tasync-backend-uring: the reactor contract (api/include/tasync/reactor.h)
 * on Linux io_uring through liburing (>= 2.3). Exports only
 * tasync_backend_entry. How io_uring's model is fitted to the contract
 * (batching, level-triggered readiness over one-shot polls, object lifetime
 * until the last CQE, a loop_run(0) without a system call, valgrind) is told
 * in docs/backend-guide.md, "Notes from the io_uring backend". The
 * completion operations are in uring_ops.c, what both files share in uring.h.
 */
#include "uring.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#define URING_BACKEND_NAME "uring"
#ifndef TASYNC_LIBURING_VERSION
#define TASYNC_LIBURING_VERSION "(version unknown)" /* meson passes liburing's */
#endif
#define DEFAULT_QUEUE_DEPTH 256u

/* An io handle. */
struct tasync_handle {
    unsigned char closed;     /* handle_close was called: no more callbacks */
    unsigned char armed;      /* our poll is queued or in the kernel */
    unsigned char removing;   /* its removal is queued or in the kernel */
    unsigned char in_dirty;
    struct tasync_loop *loop;
    tasync_io_cb cb;
    void *data;
    struct tasync_handle *all_prev, *all_next;
    struct tasync_handle *next; /* in the dirty queue */
    int fd;
    unsigned events;     /* wanted tasync_io_event_t bits; 0 = stopped */
    unsigned armed_mask; /* poll mask of the request in the kernel */
};

/* Arms the wakeup eventfd's poll: multishot unless the kernel lacks it. */
static void arm_wakeup(struct tasync_loop *l) {
    struct io_uring_sqe *sqe = get_sqe(l);
    if (sqe == NULL) return;
    if (l->oneshot_only) io_uring_prep_poll_add(sqe, l->wake_fd, POLLIN);
    else io_uring_prep_poll_multishot(sqe, l->wake_fd, POLLIN);
    count_request(l, sqe, ud_pack(l, TAG_WAKE));
    l->wake_armed = 1;
}

/* ---------------------------------------------------------- handle lists */

static void mark_dirty(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->in_dirty) return;
    h->in_dirty = 1;
    h->next = NULL;
    if (l->dirty_tail != NULL) l->dirty_tail->next = h;
    else l->dirty_head = h;
    l->dirty_tail = h;
}

static void free_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->all_prev != NULL) h->all_prev->all_next = h->all_next;
    else l->all = h->all_next;
    if (h->all_next != NULL) h->all_next->all_prev = h->all_prev;
    free(h);
}

/* Frees a closed handle once nothing refers to it any more: no request in
 * the kernel (so no CQE, copied out or not, can name it: a handle has at
 * most one) and no place in the dirty queue. */
static void maybe_release(struct tasync_handle *h) {
    if (h->closed && !h->armed && !h->in_dirty) free_handle(h);
}

/* ------------------------------------------------------- dirty handles */

/* PRIORITY asks for POLLRDBAND too: on Linux 6.18 the arrival of TCP
 * urgent data does not complete an io_uring poll whose mask is POLLPRI
 * alone (epoll sees it), while a mask with POLLRDBAND completes with
 * POLLPRI | POLLRDBAND (found by tasync-conformance, Io.PriorityDataIsReported). */
static unsigned poll_mask_of(unsigned events) {
    unsigned mask = 0;
    if (events & TASYNC_IO_READABLE) mask |= POLLIN | POLLRDHUP;
    if (events & TASYNC_IO_WRITABLE) mask |= POLLOUT;
    if (events & TASYNC_IO_PRIORITY) mask |= POLLPRI | POLLRDBAND;
    return mask;
}

/* Brings the kernel's poll of h in line with what h wants. Returns 0 when
 * no SQE could be had (h stays dirty). */
static int sync_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    uint64_t ud = ud_pack(h, TAG_HANDLE);
    unsigned want = h->closed ? 0 : poll_mask_of(h->events);
    if (want == 0) {
        if (h->armed && !h->removing) {
            struct io_uring_sqe *sqe = get_sqe(l);
            if (sqe == NULL) return 0;
            io_uring_prep_poll_remove(sqe, ud);
            count_request(l, sqe, ud_pack(NULL, TAG_IGNORE));
            h->removing = 1;
        }
    } else if (!h->armed) {
        struct io_uring_sqe *sqe = get_sqe(l);
        if (sqe == NULL) return 0;
        io_uring_prep_poll_add(sqe, h->fd, want);
        count_request(l, sqe, ud);
        h->armed = 1;
        h->armed_mask = want;
    } else if (!h->removing && h->armed_mask != want) {
        /* Change the mask in place; if the poll completed meanwhile the
         * update finds nothing and the CQE re-arms it with the new mask. */
        struct io_uring_sqe *sqe = get_sqe(l);
        if (sqe == NULL) return 0;
        io_uring_prep_poll_update(sqe, ud, 0, want, IORING_POLL_UPDATE_EVENTS);
        count_request(l, sqe, ud_pack(NULL, TAG_IGNORE));
        h->armed_mask = want;
    }
    /* armed and removing: re-armed once the removed poll's CQE arrives. */
    return 1;
}

/* Queues what table calls asked for since the last loop_run. */
static void flush_dirty(struct tasync_loop *l) {
    if (!l->wake_armed) arm_wakeup(l);
    while (l->dirty_head != NULL) {
        struct tasync_handle *h = l->dirty_head;
        if (!sync_handle(h)) break; /* SQ refused: the rest waits for the next run */
        l->dirty_head = h->next;
        if (l->dirty_head == NULL) l->dirty_tail = NULL;
        h->in_dirty = 0;
        maybe_release(h);
    }
}

/* ------------------------------------------------------------ CQE dispatch */

static unsigned io_revents(int res, unsigned events) {
    unsigned ev = 0, r = (unsigned)res;
    if (r & POLLIN) ev |= TASYNC_IO_READABLE;
    if (r & POLLOUT) ev |= TASYNC_IO_WRITABLE;
    if (r & (POLLPRI | POLLRDBAND)) ev |= TASYNC_IO_PRIORITY; /* priority band data counts too */
    if (r & (POLLHUP | POLLRDHUP)) ev |= TASYNC_IO_HANGUP;
    if (r & POLLERR) ev |= TASYNC_IO_ERROR;
    /* On hangup or error, let the caller try what it waits for and see the
     * outcome (EOF, EPIPE, the pending error). */
    if (r & (POLLHUP | POLLERR)) ev |= events;
    return ev & (events | TASYNC_IO_HANGUP | TASYNC_IO_ERROR);
}

static void on_handle_cqe(struct tasync_handle *h, int res) {
    struct tasync_loop *l = h->loop;
    unsigned revents;
    h->armed = 0;
    h->removing = 0;
    if (h->closed || l->destroying) {
        maybe_release(h);
        return;
    }
    if (h->events == 0) return; /* stopped meanwhile */
    if (res == -ECANCELED) {
        /* Removed by io_stop, restarted since. */
        mark_dirty(h);
        return;
    }
    if (res < 0) {
        /* E.g. -EBADF: the fd was closed behind our back (G4). */
        h->events = 0;
        l->dispatched++;
        h->cb(h, h->data, res, 0);
        return;
    }
    /* Level-triggered (G5): poll again at the next loop_run, which reports
     * the fd again if it is still ready. Done before the callback, which
     * may close h. */
    mark_dirty(h);
    revents = io_revents(res, h->events);
    if (revents == 0) return;
    l->dispatched++;
    h->cb(h, h->data, 0, revents);
}

static void dispatch_cqe(struct tasync_loop *l, uint64_t ud, int res, unsigned flags) {
    int final = !(flags & IORING_CQE_F_MORE);
    void *p = ud_ptr(ud);
    if (ud == LIBURING_UDATA_TIMEOUT) return; /* liburing's own timeout on old kernels */
    if (final) l->kreqs--;
    switch (ud_tag(ud)) {
        case TAG_OP: uring_on_op_cqe(l, p, res); break;
        case TAG_HANDLE: on_handle_cqe(p, res); break;
        case TAG_WAKE: {
            uint64_t count;
            if (final) {
                l->wake_armed = 0;
                if (res == -EINVAL) l->oneshot_only = 1;
            }
            if (read(l->wake_fd, &count, sizeof(count)) < 0) count = 0; /* already drained */
            break;
        }
        default: break; /* TAG_IGNORE */
    }
}

/* Dispatches at most the CQEs present when called: CQEs posted by
 * submissions made from callbacks wait for the next loop_run. The CQ ring
 * is walked inline (io_uring_for_each_cqe) rather than through liburing's
 * out-of-line io_uring_peek_batch_cqe: this runs once per loop_run. */
static void process_cqes(struct tasync_loop *l) {
    unsigned budget = io_uring_cq_ready(&l->ring);
    while (budget > 0) {
        struct io_uring_cqe *cqe;
        uint64_t ud[32];
        int res[32];
        unsigned flags[32];
        unsigned head, n = 0, i;
        /* Copy and release the slots first: callbacks may submit, which
         * can post new CQEs. */
        io_uring_for_each_cqe(&l->ring, head, cqe) {
            ud[n] = cqe->user_data;
            res[n] = cqe->res;
            flags[n] = cqe->flags;
            if (++n == 32 || n == budget) break;
        }
        if (n == 0) break;
        io_uring_cq_advance(&l->ring, n);
        budget -= n;
        for (i = 0; i < n; i++) dispatch_cqe(l, ud[i], res[i], flags[i]);
    }
}

/* ------------------------------------------------------------------ loop */

static int read_int_file(const char *path, int *out) {
    FILE *f = fopen(path, "re");
    int ok;
    if (f == NULL) return 0;
    ok = fscanf(f, "%d", out) == 1;
    fclose(f);
    return ok;
}

/* Explains why io_uring_queue_init failed, naming the kernel setting that
 * refuses io_uring when there is one. */
static void set_setup_error(const tasync_loop_options_t *opts, int err) {
    char why[200] = "";
    int off = 0, group = -1;
    if (opts == NULL || opts->errbuf == NULL || opts->errbuf_size == 0) return;
    if (read_int_file("/proc/sys/kernel/io_uring_disabled", &off) && off == 1 &&
        read_int_file("/proc/sys/kernel/io_uring_group", &group) && group >= 0)
        snprintf(why, sizeof(why), " (kernel.io_uring_disabled=1: only processes with CAP_SYS_ADMIN or in group %d,"
                 " kernel.io_uring_group, may create rings)", group);
    else if (off == 1)
        snprintf(why, sizeof(why), " (kernel.io_uring_disabled=1: only processes with CAP_SYS_ADMIN may create rings)");
    else if (off != 0)
        snprintf(why, sizeof(why), " (kernel.io_uring_disabled=%d)", off);
    else if (err == -EPERM || err == -ENOSYS)
        snprintf(why, sizeof(why), " (kernel.io_uring_disabled is 0 or absent, so a seccomp filter, an LSM or the"
                 " container runtime refuses io_uring_setup%s)",
                 err == -ENOSYS ? ", or the kernel lacks io_uring" : "");
    else if (err == -ENOMEM)
        snprintf(why, sizeof(why), " (out of memory, or RLIMIT_MEMLOCK too small on kernels before 5.12)");
    else if (err == -EMFILE || err == -ENFILE)
        snprintf(why, sizeof(why), " (no file descriptor left for the ring)");
    snprintf(opts->errbuf, opts->errbuf_size, "io_uring_queue_init failed: %s%s", strerror(-err), why);
}

/* Ring flags from the most to the least capable; each is tried while the
 * kernel answers -EINVAL (unknown flag). */
static const unsigned k_ring_flags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
    IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CLAMP,
    IORING_SETUP_CLAMP,
};

/* The first of k_ring_flags whose completions the kernel posts by itself
 * (no deferred or cooperative task work), so that a poll(2) on the ring's
 * fd sees them: the rings made under valgrind start there. */
#define RING_FLAGS_SELF_POSTING 3

/* Makes the loop's ring and wakeup eventfd, at creation and again in a
 * forked child; the wakeup poll is submitted by the next loop_run. */
static int open_ring(struct tasync_loop *l, const tasync_loop_options_t *opts) {
    size_t i = l->valgrind ? RING_FLAGS_SELF_POSTING : 0;
    int rc = -EINVAL;
    for (; rc == -EINVAL && i < sizeof(k_ring_flags) / sizeof(k_ring_flags[0]); i++) {
        struct io_uring_params p;
        memset(&p, 0, sizeof(p));
        p.flags = k_ring_flags[i];
        rc = io_uring_queue_init_params(l->entries, &l->ring, &p);
    }
    if (rc != 0) {
        set_setup_error(opts, rc);
        return rc;
    }
    l->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (l->wake_fd < 0) {
        rc = -errno;
        if (opts != NULL && opts->errbuf != NULL && opts->errbuf_size > 0)
            snprintf(opts->errbuf, opts->errbuf_size, "eventfd failed: %s", strerror(-rc));
        io_uring_queue_exit(&l->ring);
        return rc;
    }
    l->kreqs = 0;
    l->wake_armed = 0;
    arm_wakeup(l);
    return 0;
}

static int uring_loop_create_(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    struct tasync_loop *l;
    int rc;
    if (out == NULL) return -EINVAL;
    l = calloc(1, sizeof(*l));
    if (l == NULL) return -ENOMEM;
    l->entries = DEFAULT_QUEUE_DEPTH;
    if (opts != NULL && opts->size >= offsetof(tasync_loop_options_t, reserved0) && opts->queue_depth != 0)
        l->entries = opts->queue_depth < 4 ? 4 : opts->queue_depth;
    l->valgrind = RUNNING_ON_VALGRIND ? 1 : 0;
    rc = open_ring(l, opts);
    if (rc != 0) {
        free(l);
        return rc;
    }
    *out = l;
    return 0;
}

/* G11, in a child after fork(): the ring and the wakeup eventfd are shared
 * with the parent (and a SINGLE_ISSUER ring refuses the child anyway), so
 * the loop gets new ones; the child's mapping of the old ring is dropped,
 * which leaves the parent's intact. Every request of the old ring is
 * forgotten: the polls of the handles are queued again for the next
 * loop_run, and completion ops finish there with -ECANCELED. */
static int uring_loop_fork_(tasync_loop_t *loop) {
    struct tasync_loop *l = loop;
    struct io_uring old;
    struct tasync_handle *h, *next;
    int rc, old_wake;
    if (l == NULL) return -EINVAL;
    old = l->ring;
    old_wake = l->wake_fd;
    rc = open_ring(l, NULL);
    if (rc != 0) {
        l->ring = old;
        l->wake_fd = old_wake;
        return rc;
    }
    io_uring_queue_exit(&old);
    close(old_wake);
    for (h = l->all; h != NULL; h = next) {
        next = h->all_next;
        h->armed = 0;
        h->removing = 0;
        if (h->closed) maybe_release(h);
        else if (h->events != 0) mark_dirty(h);
    }
    uring_ops_lost_in_fork(l);
    return 0;
}

/* Marks h closed; its poll is removed at the next flush. Idempotent. */
static void close_handle(struct tasync_handle *h) {
    if (h->closed) return;
    h->closed = 1;
    if (h->armed) mark_dirty(h);
}

/* Rewrites the SQEs not yet handed to the kernel into NOPs that keep their
 * user_data: nothing queued runs after loop_destroy, and every counted
 * request still gets its one CQE. */
static void neutralise_queued(struct tasync_loop *l) {
    struct io_uring_sq *sq = &l->ring.sq;
    unsigned i;
    for (i = sq->sqe_head; i != sq->sqe_tail; i++) {
        struct io_uring_sqe *sqe = &sq->sqes[i & sq->ring_mask];
        uint64_t ud = sqe->user_data;
        io_uring_prep_nop(sqe);
        sqe->user_data = ud;
    }
}

/* Asks the kernel to cancel every request of the loop still in flight. */
static void cancel_everything(struct tasync_loop *l) {
    struct tasync_handle *h;
    if (l->wake_armed) queue_cancel(l, ud_pack(l, TAG_WAKE));
    for (h = l->all; h != NULL; h = h->all_next)
        if (h->armed) queue_cancel(l, ud_pack(h, TAG_HANDLE));
    uring_ops_cancel_all(l);
}

static void uring_loop_destroy_(tasync_loop_t *loop) {
    struct tasync_handle *h;
    unsigned round, idle;
    if (loop == NULL) return;
    loop->destroying = 1;
    for (h = loop->all; h != NULL; h = h->all_next) close_handle(h);
    /* Wait for the final CQE of everything the kernel holds: after this
     * returns no request can write into memory the host frees (G8). */
    neutralise_queued(loop);
    cancel_everything(loop);
    for (round = 1, idle = 0; loop->kreqs > 0; round++) {
        struct __kernel_timespec ts = {0, 50 * 1000 * 1000};
        struct io_uring_cqe *cqe;
        unsigned before = loop->kreqs;
        int rc;
        if (round % 20 == 0) cancel_everything(loop); /* e.g. -EALREADY earlier */
        rc = io_uring_submit_and_wait_timeout(&loop->ring, &cqe, 1, &ts, NULL);
        process_cqes(loop);
        idle = loop->kreqs < before ? 0 : idle + 1;
        /* The ring refuses us (e.g. -EEXIST: destroyed from another thread
         * than the creator, against G1) or nothing moves for 10 s: leave
         * the rest to the kernel's cancellation at ring teardown rather
         * than hang. */
        if ((rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) || idle >= 200) break;
    }
    io_uring_queue_exit(&loop->ring);
    while (loop->all != NULL) free_handle(loop->all);
    if (loop->wake_fd >= 0) close(loop->wake_fd);
    free(loop);
}

/* Under valgrind, which cannot block in io_uring_enter without starving
 * every other thread, the loop submits and then waits in poll(2) on the
 * ring's fd (docs/backend-guide.md, "Valgrind"). */
static int wait_for_cqes(struct io_uring *ring, int64_t wait_ns) {
    struct pollfd pfd;
    int rc = io_uring_submit(ring), timeout_ms;
    if (rc < 0) return rc;
    if (io_uring_cq_ready(ring) > 0) return 0;
    /* Rounded up: never wake before the deadline. */
    timeout_ms = wait_ns < 0 ? -1 : wait_ns / 1000000 >= INT32_MAX ? INT32_MAX : (int)((wait_ns + 999999) / 1000000);
    pfd.fd = ring->ring_fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (poll(&pfd, 1, timeout_ms) < 0) return errno == EINTR ? 0 : -errno;
    return 0;
}

/* One iteration: queue what table calls asked for, submit the batch and
 * wait in one io_uring_enter, dispatch the CQEs. loop_run(0) enters the
 * kernel only when SQEs are queued or the shared SQ flags say completions
 * wait to be posted (docs/backend-guide.md, "A loop_run(0) without a system
 * call"). */
static int uring_loop_run_(tasync_loop_t *loop, int64_t timeout_ns) {
    struct io_uring *ring = &loop->ring;
    int64_t wait = timeout_ns;
    int rc = 0, result;
    unsigned extra, max_extra;
    loop->dispatched = 0;
    if (loop->lost_ops) uring_finish_lost_ops(loop);
    flush_dirty(loop);
    if (wait != 0 && (loop->dispatched > 0 || io_uring_cq_ready(ring) > 0)) wait = 0;
    if (wait == 0) {
        if (io_uring_sq_ready(ring) > 0)
            rc = io_uring_submit_and_get_events(ring);
        else if (IO_URING_READ_ONCE(*ring->sq.kflags) & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW))
            rc = io_uring_get_events(ring);
    } else if (loop->valgrind) {
        rc = wait_for_cqes(ring, wait);
    } else if (wait < 0) {
        /* Straight to io_uring_enter(GETEVENTS, 1), without the generic
         * get-CQE loop of submit_and_wait_timeout: every idle wait. */
        rc = io_uring_submit_and_wait(ring, 1);
    } else {
        struct __kernel_timespec ts;
        struct io_uring_cqe *cqe;
        ts.tv_sec = wait / 1000000000;
        ts.tv_nsec = wait % 1000000000;
        rc = io_uring_submit_and_wait_timeout(ring, &cqe, 1, &ts, NULL);
    }
    /* A timeout, a signal or a busy CQ is just an early return (G7). */
    if (rc == -ETIME || rc == -EINTR || rc == -EAGAIN || rc == -EBUSY || rc > 0) rc = 0;
    process_cqes(loop);
    /* CQEs that overflowed the CQ ring (IORING_FEAT_NODROP) are fetched now:
     * G5 wants every ready fd reported by every run. The bound only keeps
     * callbacks that submit more and more from holding the run. */
    max_extra = loop->kreqs / (ring->cq.ring_entries != 0 ? ring->cq.ring_entries : 1) + 2;
    for (extra = 0; extra < max_extra && io_uring_cq_has_overflow(ring); extra++) {
        io_uring_get_events(ring);
        process_cqes(loop);
    }
    result = loop->dispatched;
    return rc < 0 ? rc : result;
}

/* Thread-safe: the ring belongs to the loop's thread (SINGLE_ISSUER); the
 * eventfd write wakes it through the multishot poll on the eventfd. */
static int uring_loop_wakeup_(tasync_loop_t *loop) {
    uint64_t one = 1;
    if (write(loop->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN) return -errno;
    return 0;
}

static uint64_t uring_loop_now_(tasync_loop_t *loop) {
    struct timespec ts;
    (void)loop;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* -------------------------------------------------------------------- io */

static int uring_io_open_(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL || fd < 0) return -EINVAL;
    /* The ring would only say so in a CQE; refuse a bad fd right away. */
    if (fcntl(fd, F_GETFD) < 0) return -errno;
    h = calloc(1, sizeof(*h));
    if (h == NULL) return -ENOMEM;
    h->loop = loop;
    h->cb = cb;
    h->data = data;
    h->fd = fd;
    h->all_next = loop->all;
    if (loop->all != NULL) loop->all->all_prev = h;
    loop->all = h;
    *out = h;
    return 0;
}

static int uring_io_start_(tasync_handle_t *h, unsigned events) {
    if (h == NULL || h->closed) return -EINVAL;
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE | TASYNC_IO_PRIORITY;
    if (events == h->events) return 0;
    h->events = events;
    mark_dirty(h);
    return 0;
}

static int uring_io_stop_(tasync_handle_t *h) {
    if (h == NULL) return -EINVAL;
    if (h->events == 0) return 0;
    h->events = 0;
    if (h->armed) mark_dirty(h);
    return 0;
}

static void uring_handle_close_(tasync_handle_t *h) {
    if (h == NULL || h->closed) return;
    close_handle(h);
    maybe_release(h);
}

/* ----------------------------------------------------------------- table */

static char g_version[128];

/* The slots left out (timers, signals, children, offload) stay NULL: the
 * core owns timers, signals and children since ABI 1.2. */
static tasync_backend_t g_table = {
    .size = sizeof(tasync_backend_t),
    .abi_version = TASYNC_ABI_VERSION,
    .name = URING_BACKEND_NAME,
    .version = g_version,
    .capabilities = TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY | TASYNC_CAP_PRECISE_TIMEOUT,
    .loop_create = uring_loop_create_,
    .loop_destroy = uring_loop_destroy_,
    .loop_run = uring_loop_run_,
    .loop_wakeup = uring_loop_wakeup_,
    .loop_now = uring_loop_now_,
    .io_open = uring_io_open_,
    .io_start = uring_io_start_,
    .io_stop = uring_io_stop_,
    .handle_close = uring_handle_close_,
    .op_submit = uring_op_submit,
    .op_cancel = uring_op_cancel,
    .loop_fork = uring_loop_fork_,
};

/* Runs once when the shared object is loaded: fills in what depends on the
 * kernel found at run time. */
__attribute__((constructor)) static void uring_backend_init(void) {
    struct utsname un;
    g_table.op_mask = uring_ops_probe();
    if (g_table.op_mask != 0) g_table.capabilities |= TASYNC_CAP_COMPLETION;
    if (uname(&un) != 0) snprintf(un.release, sizeof(un.release), "?");
    snprintf(g_version, sizeof(g_version), "liburing %s (kernel io_uring, Linux %s)", TASYNC_LIBURING_VERSION,
             un.release);
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
