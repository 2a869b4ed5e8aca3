/*
 * tasync-backend-uring: the reactor contract (api/include/tasync/reactor.h)
 * on Linux io_uring through liburing (>= 2.3). Exports only
 * tasync_backend_entry.
 *
 * Notes on io_uring that shape this file:
 *  - The ring is created with SINGLE_ISSUER | DEFER_TASKRUN | TASKRUN_FLAG
 *    (plus SUBMIT_ALL and CLAMP) and falls back to fewer flags when the
 *    kernel answers -EINVAL. Only the loop's thread touches the ring (G1);
 *    loop_wakeup writes an eventfd that the ring polls (multishot).
 *  - Batching: table calls only queue SQEs; loop_run submits the whole batch
 *    and waits in one io_uring_enter. loop_run(0) enters the kernel only when
 *    there is something to submit or when the kernel says, through
 *    IORING_SQ_TASKRUN or IORING_SQ_CQ_OVERFLOW in the shared SQ flags, that
 *    completions are waiting to be posted (see loop_run).
 *  - A CQE carries a pointer in user_data, so an object stays allocated until
 *    the kernel has posted its last CQE for it. handle_close only marks the
 *    handle closed and asks the kernel to drop its poll; the memory goes
 *    when the final CQE has been seen (G3). loop_destroy cancels everything
 *    and waits for those CQEs, without callbacks (G8).
 *  - io_uring polls are edge-like (one CQE per arming, or per wakeup for a
 *    multishot poll), while G5 wants level-triggered readiness. Io handles
 *    therefore use one-shot polls that are armed again at the next loop_run
 *    after every report: an armed poll whose fd is still ready completes
 *    during that very io_uring_enter, so a satisfied interest is reported by
 *    every loop_run, and the re-arm rides in the batch loop_run submits
 *    anyway. A multishot poll would need an extra readiness check (a poll(2)
 *    per loop_run) to honour G5, so multishot is kept for the internal fds
 *    that are drained on every report (the wakeup eventfd and the signalfd),
 *    re-armed whenever a CQE arrives without IORING_CQE_F_MORE.
 *  - Timers live in a binary heap here (like the core's); the earliest
 *    deadline bounds the wait passed to io_uring_submit_and_wait_timeout.
 *  - Signals use a signalfd per loop; child exits a pidfd polled by the ring
 *    (SIGCHLD through the same signalfd where pidfd_open is missing). The
 *    thread caveats of signalfd are described above the signal section.
 *
 * Two compile-time switches exist for tests only and are off in every build
 * of this tree: TASYNC_URING_TEST_NO_PIDFD takes the SIGCHLD path for child
 * watches, TASYNC_URING_TEST_EAGAIN makes the first attempt of READ/WRITE/
 * RECV/SEND on pipes and sockets non-blocking so that the -EAGAIN fallback of
 * completion operations (needed by kernels older than this one) runs.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <liburing.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define URING_BACKEND_NAME "uring"
#define DEFAULT_QUEUE_DEPTH 256u
/* Largest transfer the kernel performs in one call (MAX_RW_COUNT); it also
 * keeps the result representable in tasync_op_t.result. */
#define MAX_TRANSFER 0x7ffff000u

enum handle_kind { K_TIMER = 1, K_IO, K_SIGNAL, K_CHILD };

/* What a CQE is about: the low bits of user_data (see ud_pack). */
enum ud_tag {
    TAG_OP = 0,      /* a completion operation: tasync_op_t */
    TAG_OP_POLL = 1, /* readiness wait of an op that met -EAGAIN */
    TAG_HANDLE = 2,  /* the poll of an io or child handle */
    TAG_WAKE = 3,    /* the loop's wakeup eventfd (multishot) */
    TAG_SIGNAL = 4,  /* the loop's signalfd (multishot) */
    TAG_IGNORE = 5   /* poll removals and updates, cancellations */
};

/* State bits of an op in flight, kept in op->internal[1]. */
enum op_state {
    OPS_CANCEL = 1,      /* op_cancel was called */
    OPS_POLLING = 2,     /* waiting for readiness before trying again */
    OPS_CONNECTING = 4,  /* connect in progress: result is SO_ERROR */
    OPS_LOST = 8         /* in the parent's ring at a fork (G11): -ECANCELED */
};

struct tasync_handle;

struct tasync_loop {
    struct io_uring ring;
    /* Requests whose final CQE has not been seen yet (loop_destroy waits
     * for them). */
    unsigned kreqs;
    int in_run;
    int destroying;
    int dispatched;
    int oneshot_only; /* the kernel refused multishot polls */
    int wake_fd;
    int wake_armed;
    int sig_fd;
    int sig_armed;
    sigset_t sig_mask;
    int sig_count[NSIG];
    /* Fan-out of signals to the other loops of the process (see the
     * signal section): registration under g_sig_mu, counters atomic. */
    struct tasync_loop *sig_loop_next;
    int sig_registered;
    unsigned char sig_watched[NSIG];
    atomic_uint sig_forwarded[NSIG];
    atomic_int sig_forward_pending;
    int sigchld_users; /* child watches without a pidfd */
    int sigchld_check; /* reap them in this loop_run */
    /* Every handle not yet freed, closed or not. */
    struct tasync_handle *all;
    /* Handles whose poll must be armed, changed or removed at the next
     * loop_run (FIFO). */
    struct tasync_handle *dirty_head, *dirty_tail;
    /* Closed handles freed at the end of the current loop_run. */
    struct tasync_handle *zombies;
    /* Signal handles and child handles waiting for SIGCHLD. */
    struct tasync_handle *watch_head, *watch_tail;
    /* Timer heap ordered by (deadline, seq). */
    struct tasync_handle **heap;
    size_t heap_len, heap_cap;
    uint64_t timer_seq;
    /* Completion operations in flight (linked through internal[2..3]). */
    tasync_op_t *ops;
    int lost_ops;     /* some are OPS_LOST: finish them at the next loop_run */
    unsigned entries; /* queue depth, for the ring a forked child makes */
};

struct tasync_handle {
    int kind;
    unsigned char closed;     /* handle_close was called: no more callbacks */
    unsigned char armed;      /* our poll is queued or in the kernel */
    unsigned char removing;   /* its removal is queued or in the kernel */
    unsigned char in_dirty;
    unsigned char in_zombies;
    unsigned char in_watch;
    unsigned char due;        /* timers: collected to fire in this loop_run */
    unsigned char reaped;     /* children: the callback was delivered */
    unsigned char sigchld;    /* children: counted in loop->sigchld_users */
    struct tasync_loop *loop;
    union {
        tasync_timer_cb timer;
        tasync_io_cb io;
        tasync_signal_cb signal;
        tasync_child_cb child;
    } cb;
    void *data;
    struct tasync_handle *all_prev, *all_next;
    struct tasync_handle *watch_prev, *watch_next;
    struct tasync_handle *dirty_next;
    struct tasync_handle *zombie_next;
    struct tasync_handle *due_next;
    /* timers */
    uint64_t deadline_ns;
    uint64_t repeat_ns;
    uint64_t seq;
    size_t heap_index;
    /* io */
    int fd;
    unsigned events;     /* wanted tasync_io_event_t bits; 0 = stopped */
    unsigned armed_mask; /* poll mask of the request in the kernel */
    /* signal */
    int signum;
    /* child */
    int pid;
    int pidfd;
};

#define NOT_IN_HEAP ((size_t)-1)

static uint64_t g_op_mask;
static int g_have_pidfd;

/* ------------------------------------------------------------ user_data */

/* user_data is a pointer plus a tag: handles and loops come from calloc and
 * ops are 8-byte aligned (checked in op_submit), so on 64-bit systems the
 * tag fits in the three low bits; on 32-bit ones it goes above the pointer. */
#if UINTPTR_MAX > 0xffffffffu
static uint64_t ud_pack(const void *p, unsigned tag) { return (uint64_t)(uintptr_t)p | tag; }
static unsigned ud_tag(uint64_t ud) { return (unsigned)(ud & 7u); }
static void *ud_ptr(uint64_t ud) { return (void *)(uintptr_t)(ud & ~(uint64_t)7u); }
#define OP_ALIGN_MASK ((uintptr_t)7u)
#else
static uint64_t ud_pack(const void *p, unsigned tag) { return ((uint64_t)tag << 32) | (uintptr_t)p; }
static unsigned ud_tag(uint64_t ud) { return (unsigned)(ud >> 32) & 7u; }
static void *ud_ptr(uint64_t ud) { return (void *)(uintptr_t)(uint32_t)ud; }
#define OP_ALIGN_MASK ((uintptr_t)0u)
#endif

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------- SQEs */

/* Returns a free SQE. When the SQ is full, the batch so far is submitted
 * (without waiting) and the SQE taken from the emptied queue. NULL only if
 * the kernel refuses the submission. */
static struct io_uring_sqe *get_sqe(struct tasync_loop *l) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);
    if (sqe == NULL) {
        io_uring_submit(&l->ring);
        sqe = io_uring_get_sqe(&l->ring);
    }
    return sqe;
}

/* Queues a request that posts one final CQE with user_data ud. */
static void count_request(struct tasync_loop *l, struct io_uring_sqe *sqe, uint64_t ud) {
    io_uring_sqe_set_data64(sqe, ud);
    l->kreqs++;
}

/* Queues the removal of the poll identified by target (a fire-and-forget
 * request whose CQE is only counted). Returns 0 or -EBUSY. */
static int queue_poll_remove(struct tasync_loop *l, uint64_t target) {
    struct io_uring_sqe *sqe = get_sqe(l);
    if (sqe == NULL) return -EBUSY;
    io_uring_prep_poll_remove(sqe, target);
    count_request(l, sqe, ud_pack(NULL, TAG_IGNORE));
    return 0;
}

/* Queues the cancellation of the request identified by target. */
static int queue_cancel(struct tasync_loop *l, uint64_t target) {
    struct io_uring_sqe *sqe = get_sqe(l);
    if (sqe == NULL) return -EBUSY;
    io_uring_prep_cancel64(sqe, target, 0);
    count_request(l, sqe, ud_pack(NULL, TAG_IGNORE));
    return 0;
}

/* Arms the poll of an internal fd: multishot unless the kernel lacks it. */
static int queue_internal_poll(struct tasync_loop *l, int fd, unsigned tag) {
    struct io_uring_sqe *sqe = get_sqe(l);
    if (sqe == NULL) return -EBUSY;
    if (l->oneshot_only) io_uring_prep_poll_add(sqe, fd, POLLIN);
    else io_uring_prep_poll_multishot(sqe, fd, POLLIN);
    count_request(l, sqe, ud_pack(l, tag));
    return 0;
}

/* ---------------------------------------------------------- handle lists */

static struct tasync_handle *new_handle(struct tasync_loop *l, int kind, void *data) {
    struct tasync_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) return NULL;
    h->kind = kind;
    h->loop = l;
    h->data = data;
    h->fd = -1;
    h->pidfd = -1;
    h->heap_index = NOT_IN_HEAP;
    h->all_next = l->all;
    if (l->all != NULL) l->all->all_prev = h;
    l->all = h;
    return h;
}

static void watch_link(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    h->in_watch = 1;
    h->watch_next = NULL;
    h->watch_prev = l->watch_tail;
    if (l->watch_tail != NULL) l->watch_tail->watch_next = h;
    else l->watch_head = h;
    l->watch_tail = h;
}

static void watch_unlink(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (!h->in_watch) return;
    h->in_watch = 0;
    if (h->watch_prev != NULL) h->watch_prev->watch_next = h->watch_next;
    else l->watch_head = h->watch_next;
    if (h->watch_next != NULL) h->watch_next->watch_prev = h->watch_prev;
    else l->watch_tail = h->watch_prev;
}

static void mark_dirty(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->in_dirty) return;
    h->in_dirty = 1;
    h->dirty_next = NULL;
    if (l->dirty_tail != NULL) l->dirty_tail->dirty_next = h;
    else l->dirty_head = h;
    l->dirty_tail = h;
}

static void free_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    watch_unlink(h);
    if (h->all_prev != NULL) h->all_prev->all_next = h->all_next;
    else l->all = h->all_next;
    if (h->all_next != NULL) h->all_next->all_prev = h->all_prev;
    if (h->pidfd >= 0) close(h->pidfd);
    free(h);
}

/* Frees a closed handle once nothing refers to it any more: no request in
 * the kernel and no place in the dirty queue. Inside loop_run the memory is
 * kept until the run ends, because the dispatcher may still be walking a
 * list the handle is on. */
static void maybe_release(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (!h->closed || h->armed || h->in_dirty || h->in_zombies) return;
    if (l->in_run > 0) {
        h->in_zombies = 1;
        h->zombie_next = l->zombies;
        l->zombies = h;
        return;
    }
    free_handle(h);
}

static void free_zombies(struct tasync_loop *l) {
    while (l->zombies != NULL) {
        struct tasync_handle *h = l->zombies;
        l->zombies = h->zombie_next;
        free_handle(h);
    }
}

/* ---------------------------------------------------------------- timers */

static int timer_before(const struct tasync_handle *a, const struct tasync_handle *b) {
    return a->deadline_ns < b->deadline_ns || (a->deadline_ns == b->deadline_ns && a->seq < b->seq);
}

static void heap_set(struct tasync_loop *l, size_t i, struct tasync_handle *h) {
    l->heap[i] = h;
    h->heap_index = i;
}

static void heap_sift_up(struct tasync_loop *l, size_t i) {
    struct tasync_handle *h = l->heap[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!timer_before(h, l->heap[parent])) break;
        heap_set(l, i, l->heap[parent]);
        i = parent;
    }
    heap_set(l, i, h);
}

static void heap_sift_down(struct tasync_loop *l, size_t i) {
    struct tasync_handle *h = l->heap[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= l->heap_len) break;
        if (child + 1 < l->heap_len && timer_before(l->heap[child + 1], l->heap[child])) child++;
        if (!timer_before(l->heap[child], h)) break;
        heap_set(l, i, l->heap[child]);
        i = child;
    }
    heap_set(l, i, h);
}

static int heap_push(struct tasync_loop *l, struct tasync_handle *h) {
    if (l->heap_len == l->heap_cap) {
        size_t cap = l->heap_cap != 0 ? l->heap_cap * 2 : 16;
        struct tasync_handle **grown = realloc(l->heap, cap * sizeof(*grown));
        if (grown == NULL) return -ENOMEM;
        l->heap = grown;
        l->heap_cap = cap;
    }
    l->heap[l->heap_len] = h;
    h->heap_index = l->heap_len++;
    heap_sift_up(l, h->heap_index);
    return 0;
}

static void heap_remove(struct tasync_loop *l, struct tasync_handle *h) {
    size_t i = h->heap_index;
    struct tasync_handle *last;
    if (i == NOT_IN_HEAP) return;
    h->heap_index = NOT_IN_HEAP;
    last = l->heap[--l->heap_len];
    if (i == l->heap_len) return;
    heap_set(l, i, last);
    if (i > 0 && timer_before(last, l->heap[(i - 1) / 2])) heap_sift_up(l, i);
    else heap_sift_down(l, i);
}

/* Fires the timers due now (G6). They are collected first, in deadline
 * order with ties in start order, then called: a timer started or re-armed
 * by a callback goes back to the heap and waits for the next loop_run, so a
 * run always ends. */
static void run_timers(struct tasync_loop *l) {
    struct tasync_handle *due = NULL, **tail = &due;
    uint64_t now;
    if (l->heap_len == 0) return;
    now = now_ns();
    while (l->heap_len > 0 && l->heap[0]->deadline_ns <= now) {
        struct tasync_handle *h = l->heap[0];
        heap_remove(l, h);
        h->due = 1;
        h->due_next = NULL;
        *tail = h;
        tail = &h->due_next;
    }
    while (due != NULL) {
        struct tasync_handle *h = due;
        due = h->due_next;
        if (!h->due) continue; /* stopped, restarted or closed by an earlier callback */
        h->due = 0;
        if (h->repeat_ns != 0) {
            /* From the scheduled time, not from now; periods the loop
             * missed are skipped rather than fired in a burst. */
            h->deadline_ns += h->repeat_ns;
            if (h->deadline_ns <= now) h->deadline_ns += ((now - h->deadline_ns) / h->repeat_ns + 1) * h->repeat_ns;
            h->seq = l->timer_seq++;
            if (heap_push(l, h) != 0) h->repeat_ns = 0;
        }
        l->dispatched++;
        h->cb.timer(h, h->data);
    }
}

/* ----------------------------------------------------- process-wide signals
 *
 * signalfd only sees signals that are blocked and pending for the thread
 * that reads it (or for the whole process). A signal sent to the process is
 * delivered to any thread that does not block it, so with signalfd alone a
 * thread the runtime does not control (a worker of the core's pool created
 * before the watch, a library thread) would take the signal with its old
 * disposition: lost, or the process killed for SIGUSR1. What this backend
 * does about it:
 *  - the loop's thread blocks the watched signals while they are watched,
 *    and threads it creates afterwards inherit that mask;
 *  - a process-wide handler is installed for every watched signal. It only
 *    runs in a thread that does not block the signal, and re-sends the
 *    signal to a thread that watches it (tgkill), where it is blocked and so
 *    lands in that thread's signalfd. This also rescues signals whose old
 *    disposition was SIG_IGN, which the kernel would otherwise discard;
 *  - when the last watch of a signal in the process ends, the old
 *    disposition is restored and instances still pending for the loop's
 *    thread are discarded before the signal is unblocked again, so that a
 *    signal received while watched cannot kill the process afterwards.
 *  - one delivery is read by one signalfd only (whichever loop's thread it
 *    is pending for), but every handle of every loop watching the signal
 *    must be called: the loop that reads it counts it for each other loop
 *    watching that signal and wakes them (loop_wakeup), and they call their
 *    handles at their next loop_run.
 * The bookkeeping below is shared by all loops and protected by a mutex;
 * the handler reads atomics only.
 */

struct sig_thread {
    struct sig_thread *next;
    pid_t tid;
    int total;
    int refs[NSIG];
    unsigned char was_blocked[NSIG];
};

static pthread_mutex_t g_sig_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sig_thread *g_sig_threads; /* threads watching some signal */
static struct tasync_loop *g_sig_loops;  /* loops watching some signal */
static int g_sig_users[NSIG];            /* threads watching each signal */
static struct sigaction g_sig_old[NSIG];
static atomic_int g_sig_target[NSIG];    /* where the handler re-sends */
static _Thread_local struct sig_thread *t_sig;

static pid_t current_tid(void) { return (pid_t)syscall(SYS_gettid); }

static void forward_signal(int signum) {
    int saved = errno;
    pid_t tid = (pid_t)atomic_load(&g_sig_target[signum]);
    if (tid > 0 && tid != current_tid()) syscall(SYS_tgkill, getpid(), tid, signum);
    errno = saved;
}

/* Blocks signum in the calling thread and routes stray deliveries to it. */
static int thread_watch_signal(int signum) {
    int rc = 0;
    pthread_mutex_lock(&g_sig_mu);
    if (t_sig == NULL) {
        t_sig = calloc(1, sizeof(*t_sig));
        if (t_sig == NULL) {
            pthread_mutex_unlock(&g_sig_mu);
            return -ENOMEM;
        }
        t_sig->tid = current_tid();
        t_sig->next = g_sig_threads;
        g_sig_threads = t_sig;
    }
    if (t_sig->refs[signum] == 0) {
        sigset_t one, old;
        sigemptyset(&one);
        sigaddset(&one, signum);
        pthread_sigmask(SIG_BLOCK, &one, &old);
        t_sig->was_blocked[signum] = (unsigned char)(sigismember(&old, signum) == 1);
        if (g_sig_users[signum] == 0) {
            struct sigaction sa;
            memset(&sa, 0, sizeof(sa));
            sa.sa_handler = forward_signal;
            sigemptyset(&sa.sa_mask);
            sa.sa_flags = SA_RESTART;
            if (sigaction(signum, &sa, &g_sig_old[signum]) != 0) {
                rc = -errno;
                if (!t_sig->was_blocked[signum]) pthread_sigmask(SIG_UNBLOCK, &one, NULL);
                goto out;
            }
        }
        g_sig_users[signum]++;
        atomic_store(&g_sig_target[signum], (int)t_sig->tid);
    }
    t_sig->refs[signum]++;
    t_sig->total++;
out:
    if (t_sig->total == 0) {
        struct sig_thread **p = &g_sig_threads;
        while (*p != t_sig) p = &(*p)->next;
        *p = t_sig->next;
        free(t_sig);
        t_sig = NULL;
    }
    pthread_mutex_unlock(&g_sig_mu);
    return rc;
}

/* Undoes one thread_watch_signal of the calling thread. */
static void thread_unwatch_signal(int signum) {
    pthread_mutex_lock(&g_sig_mu);
    if (t_sig == NULL || t_sig->refs[signum] == 0) {
        pthread_mutex_unlock(&g_sig_mu);
        return;
    }
    t_sig->total--;
    if (--t_sig->refs[signum] == 0) {
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, signum);
        if (--g_sig_users[signum] == 0) {
            struct timespec zero = {0, 0};
            sigaction(signum, &g_sig_old[signum], NULL);
            atomic_store(&g_sig_target[signum], 0);
            if (!t_sig->was_blocked[signum]) {
                while (sigtimedwait(&one, NULL, &zero) == signum) {
                }
            }
        } else if (atomic_load(&g_sig_target[signum]) == (int)t_sig->tid) {
            struct sig_thread *t;
            for (t = g_sig_threads; t != NULL; t = t->next) {
                if (t != t_sig && t->refs[signum] > 0) {
                    atomic_store(&g_sig_target[signum], (int)t->tid);
                    break;
                }
            }
        }
        if (!t_sig->was_blocked[signum]) pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    }
    if (t_sig->total == 0) {
        struct sig_thread **p = &g_sig_threads;
        while (*p != t_sig) p = &(*p)->next;
        *p = t_sig->next;
        free(t_sig);
        t_sig = NULL;
    }
    pthread_mutex_unlock(&g_sig_mu);
}

/* ---------------------------------------------------- per-loop signalfd */

/* Adds signum to the loop's signalfd (creating it on first use). */
static int loop_watch_signal(struct tasync_loop *l, int signum) {
    int rc;
    if (l->sig_count[signum]++ > 0) return 0;
    rc = thread_watch_signal(signum);
    if (rc != 0) {
        l->sig_count[signum]--;
        return rc;
    }
    sigaddset(&l->sig_mask, signum);
    if (l->sig_fd < 0) {
        l->sig_fd = signalfd(-1, &l->sig_mask, SFD_NONBLOCK | SFD_CLOEXEC);
        rc = l->sig_fd < 0 ? -errno : 0;
    } else if (signalfd(l->sig_fd, &l->sig_mask, 0) < 0) {
        rc = -errno;
    }
    if (rc != 0) {
        sigdelset(&l->sig_mask, signum);
        l->sig_count[signum]--;
        thread_unwatch_signal(signum);
        return rc;
    }
    pthread_mutex_lock(&g_sig_mu);
    l->sig_watched[signum] = 1;
    if (!l->sig_registered) {
        l->sig_loop_next = g_sig_loops;
        g_sig_loops = l;
        l->sig_registered = 1;
    }
    pthread_mutex_unlock(&g_sig_mu);
    return 0;
}

static void loop_unwatch_signal(struct tasync_loop *l, int signum) {
    if (l->sig_count[signum] == 0 || --l->sig_count[signum] > 0) return;
    pthread_mutex_lock(&g_sig_mu);
    l->sig_watched[signum] = 0;
    pthread_mutex_unlock(&g_sig_mu);
    atomic_store(&l->sig_forwarded[signum], 0);
    sigdelset(&l->sig_mask, signum);
    if (l->sig_fd >= 0) signalfd(l->sig_fd, &l->sig_mask, 0);
    thread_unwatch_signal(signum);
}

/* Takes the loop off the fan-out list (loop_destroy), before its wakeup
 * eventfd is closed. */
static void loop_forget_signals(struct tasync_loop *l) {
    struct tasync_loop **p;
    pthread_mutex_lock(&g_sig_mu);
    for (p = &g_sig_loops; *p != NULL; p = &(*p)->sig_loop_next) {
        if (*p == l) {
            *p = l->sig_loop_next;
            break;
        }
    }
    l->sig_registered = 0;
    pthread_mutex_unlock(&g_sig_mu);
}

/* A delivery this loop read from its signalfd: count it for every other
 * loop watching the signal and wake them. */
static void forward_to_other_loops(struct tasync_loop *l, int signum) {
    struct tasync_loop *o;
    const uint64_t one = 1;
    pthread_mutex_lock(&g_sig_mu);
    for (o = g_sig_loops; o != NULL; o = o->sig_loop_next) {
        if (o == l || !o->sig_watched[signum]) continue;
        atomic_fetch_add(&o->sig_forwarded[signum], 1u);
        atomic_store(&o->sig_forward_pending, 1);
        if (write(o->wake_fd, &one, sizeof(one)) < 0) {
            /* EAGAIN: the counter is full, so the loop is being woken anyway */
        }
    }
    pthread_mutex_unlock(&g_sig_mu);
}

/* fork (G11): the bookkeeping stays consistent across fork() (the lock is
 * held through it), and the child, where only the forking thread lives,
 * keeps that thread's watches only: the others' entries are dropped, the
 * handler re-sends to the new thread id, signals nobody watches any more get
 * their old disposition back, and loops rejoin the fan-out list when
 * loop_fork is called for them. */
static void sig_atfork_prepare(void) { pthread_mutex_lock(&g_sig_mu); }
static void sig_atfork_parent(void) { pthread_mutex_unlock(&g_sig_mu); }
static void sig_atfork_child(void) {
    struct sig_thread *t = g_sig_threads;
    int s;
    while (t != NULL) {
        struct sig_thread *next = t->next;
        if (t != t_sig) free(t);
        t = next;
    }
    g_sig_threads = t_sig;
    if (t_sig != NULL) {
        t_sig->next = NULL;
        t_sig->tid = current_tid();
    }
    for (s = 1; s < NSIG; s++) {
        int users = t_sig != NULL && t_sig->refs[s] > 0;
        if (g_sig_users[s] > 0 && !users) sigaction(s, &g_sig_old[s], NULL);
        g_sig_users[s] = users;
        atomic_store(&g_sig_target[s], users ? (int)t_sig->tid : 0);
    }
    g_sig_loops = NULL;
    pthread_mutex_unlock(&g_sig_mu);
}

/* ------------------------------------------------------------ child reaping */

/* Stops the SIGCHLD watch of a child handle without a pidfd. */
static void child_unwatch_sigchld(struct tasync_handle *h) {
    if (!h->sigchld) return;
    h->sigchld = 0;
    h->loop->sigchld_users--;
    loop_unwatch_signal(h->loop, SIGCHLD);
}

/* Reaps the child if it has exited and calls back (the last thing done with
 * h, since the callback may close it). Returns 1 when reaped. */
static int try_reap(struct tasync_handle *h) {
    siginfo_t si;
    int exit_status = 0, term_signal = 0;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)h->pid, &si, WEXITED | WNOHANG) != 0) {
        if (errno != ECHILD) return 0;
        exit_status = -1; /* someone else reaped it (e.g. pcntl_waitpid) */
    } else if (si.si_pid == 0) {
        return 0; /* still running */
    } else if (si.si_code == CLD_EXITED) {
        exit_status = si.si_status;
    } else {
        term_signal = si.si_status;
    }
    h->reaped = 1;
    child_unwatch_sigchld(h);
    h->loop->dispatched++;
    h->cb.child(h, h->data, h->pid, exit_status, term_signal);
    return 1;
}

/* The SIGCHLD path: try every child watch of the loop that has no pidfd. */
static void reap_sigchld_children(struct tasync_loop *l) {
    struct tasync_handle *h = l->watch_head, *last = l->watch_tail;
    l->sigchld_check = 0;
    while (h != NULL) {
        struct tasync_handle *next = h->watch_next;
        int at_end = h == last;
        if (h->kind == K_CHILD && !h->closed && !h->reaped) try_reap(h);
        if (at_end) break;
        h = next;
    }
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
    unsigned want = 0;
    int fd = h->fd;
    if (!h->closed) {
        if (h->kind == K_IO) {
            want = poll_mask_of(h->events);
        } else if (h->kind == K_CHILD && !h->reaped && h->pidfd >= 0) {
            want = POLLIN;
            fd = h->pidfd;
        }
    }
    if (want == 0) {
        if (h->armed && !h->removing) {
            if (queue_poll_remove(l, ud) != 0) return 0;
            h->removing = 1;
        }
    } else if (!h->armed) {
        struct io_uring_sqe *sqe = get_sqe(l);
        if (sqe == NULL) return 0;
        io_uring_prep_poll_add(sqe, fd, want);
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
    if (!l->wake_armed && queue_internal_poll(l, l->wake_fd, TAG_WAKE) == 0) l->wake_armed = 1;
    if (l->sig_fd >= 0 && !l->sig_armed && queue_internal_poll(l, l->sig_fd, TAG_SIGNAL) == 0) l->sig_armed = 1;
    while (l->dirty_head != NULL) {
        struct tasync_handle *h = l->dirty_head;
        if (!sync_handle(h)) break; /* SQ refused: the rest waits for the next run */
        l->dirty_head = h->dirty_next;
        if (l->dirty_head == NULL) l->dirty_tail = NULL;
        h->in_dirty = 0;
        maybe_release(h);
    }
}

/* ------------------------------------------------------------------- ops */

static unsigned op_state(const tasync_op_t *op) { return (unsigned)(uintptr_t)op->internal[1]; }
static void op_set_state(tasync_op_t *op, unsigned st) { op->internal[1] = (void *)(uintptr_t)st; }

static void op_link(struct tasync_loop *l, tasync_op_t *op) {
    op->internal[0] = l;
    op->internal[1] = NULL;
    op->internal[2] = NULL;
    op->internal[3] = l->ops;
    if (l->ops != NULL) l->ops->internal[2] = op;
    l->ops = op;
}

static void op_unlink(struct tasync_loop *l, tasync_op_t *op) {
    tasync_op_t *prev = op->internal[2], *next = op->internal[3];
    if (prev != NULL) prev->internal[3] = next;
    else l->ops = next;
    if (next != NULL) next->internal[2] = prev;
    op->internal[0] = op->internal[1] = op->internal[2] = op->internal[3] = NULL;
}

/* ACCEPT hands &op->addrlen to the kernel as a socklen_t. */
_Static_assert(sizeof(socklen_t) == sizeof(uint32_t), "socklen_t must match tasync_op_t.addrlen");

/* user_data of the request an op currently has in the kernel. */
static uint64_t op_current_ud(const tasync_op_t *op) {
    return ud_pack(op, (op_state(op) & OPS_POLLING) ? TAG_OP_POLL : TAG_OP);
}

static int is_regular_file(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode));
}

/* Fills sqe for op. first is nonzero on the first attempt. */
static void prep_op(struct io_uring_sqe *sqe, tasync_op_t *op, int first) {
    unsigned len = op->len > MAX_TRANSFER ? MAX_TRANSFER : (unsigned)op->len;
    /* TASYNC_OFFSET_CURRENT (-1) becomes (u64)-1, io_uring's "file
     * position"; other negative offsets are refused by the kernel (-EINVAL)
     * as pread would. */
    uint64_t off = (uint64_t)op->offset;
    (void)first;
    switch (op->opcode) {
        case TASYNC_OP_READ:
            io_uring_prep_read(sqe, op->fd, op->buf, len, off);
            break;
        case TASYNC_OP_WRITE:
            io_uring_prep_write(sqe, op->fd, op->buf, len, off);
            break;
        case TASYNC_OP_RECV:
            io_uring_prep_recv(sqe, op->fd, op->buf, len, (int)op->op_flags);
            break;
        case TASYNC_OP_SEND:
            io_uring_prep_send(sqe, op->fd, op->buf, len, (int)(op->op_flags | MSG_NOSIGNAL));
            break;
        case TASYNC_OP_ACCEPT:
            io_uring_prep_accept(sqe, op->fd, op->buf, op->buf != NULL ? (socklen_t *)&op->addrlen : NULL,
                                 (int)op->op_flags);
            break;
        case TASYNC_OP_CONNECT:
            io_uring_prep_connect(sqe, op->fd, op->buf, (socklen_t)op->len);
            break;
        case TASYNC_OP_CLOSE:
            io_uring_prep_close(sqe, op->fd);
            break;
        case TASYNC_OP_FSYNC:
            io_uring_prep_fsync(sqe, op->fd, (op->op_flags & TASYNC_FSYNC_DATASYNC) ? IORING_FSYNC_DATASYNC : 0);
            break;
        case TASYNC_OP_OPENAT:
            io_uring_prep_openat(sqe, op->fd, op->buf, (int)op->op_flags, (mode_t)op->mode);
            break;
        default:
            io_uring_prep_nop(sqe);
            break;
    }
#ifdef TASYNC_URING_TEST_EAGAIN
    if (first && !is_regular_file(op->fd)) {
        if (op->opcode == TASYNC_OP_READ || op->opcode == TASYNC_OP_WRITE) sqe->rw_flags = RWF_NOWAIT;
        if (op->opcode == TASYNC_OP_RECV || op->opcode == TASYNC_OP_SEND) sqe->msg_flags |= MSG_DONTWAIT;
    }
#endif
}

/* Poll mask to wait for before trying op again after result res, or 0 when
 * res is final. Current kernels wait inside io_uring for pollable files
 * even when they are O_NONBLOCK; older ones return -EAGAIN (or, for
 * connect, -EINPROGRESS), which the contract must not leak. */
static unsigned op_retry_mask(const tasync_op_t *op, int res) {
    switch (op->opcode) {
        case TASYNC_OP_READ:
        case TASYNC_OP_WRITE:
            if (res != -EAGAIN || is_regular_file(op->fd)) return 0;
            return op->opcode == TASYNC_OP_READ ? POLLIN : POLLOUT;
        case TASYNC_OP_RECV:
        case TASYNC_OP_SEND:
            if (res != -EAGAIN || (op->op_flags & MSG_DONTWAIT)) return 0; /* the caller asked for it */
            return op->opcode == TASYNC_OP_RECV ? POLLIN : POLLOUT;
        case TASYNC_OP_ACCEPT:
            return res == -EAGAIN ? POLLIN : 0;
        case TASYNC_OP_CONNECT:
            return res == -EAGAIN || res == -EINPROGRESS ? POLLOUT : 0;
        default:
            return 0;
    }
}

/* Delivers the op's result: the callback runs once (G9), never during
 * loop_destroy. */
static void op_finish(struct tasync_loop *l, tasync_op_t *op, int res) {
    op_unlink(l, op);
    op->result = res;
    if (l->destroying) return;
    l->dispatched++;
    op->cb(op);
}

static void on_op_cqe(struct tasync_loop *l, tasync_op_t *op, int res) {
    unsigned st = op_state(op);
    unsigned mask = (st & OPS_CANCEL) || l->destroying ? 0 : op_retry_mask(op, res);
    if (mask != 0) {
        struct io_uring_sqe *sqe = get_sqe(l);
        if (sqe != NULL) {
            io_uring_prep_poll_add(sqe, op->fd, mask);
            st |= OPS_POLLING;
            if (op->opcode == TASYNC_OP_CONNECT && res == -EINPROGRESS) st |= OPS_CONNECTING;
            op_set_state(op, st);
            count_request(l, sqe, ud_pack(op, TAG_OP_POLL));
            return;
        }
    }
    op_finish(l, op, res);
}

static void on_op_poll_cqe(struct tasync_loop *l, tasync_op_t *op, int res) {
    unsigned st = op_state(op);
    struct io_uring_sqe *sqe;
    if ((st & OPS_CANCEL) || l->destroying || res == -ECANCELED) {
        op_finish(l, op, -ECANCELED);
        return;
    }
    if (res < 0) {
        op_finish(l, op, res);
        return;
    }
    if (st & OPS_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof(err);
        if (getsockopt(op->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        op_finish(l, op, -err);
        return;
    }
    sqe = get_sqe(l);
    if (sqe == NULL) {
        op_finish(l, op, -EAGAIN);
        return;
    }
    prep_op(sqe, op, 0);
    op_set_state(op, st & ~(unsigned)OPS_POLLING);
    count_request(l, sqe, ud_pack(op, TAG_OP));
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
    if (h->kind == K_CHILD) {
        if (!h->reaped && !try_reap(h)) mark_dirty(h); /* spurious: poll again */
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
        h->cb.io(h, h->data, res, 0);
        return;
    }
    /* Level-triggered (G5): poll again at the next loop_run, which reports
     * the fd again if it is still ready. Done before the callback, which
     * may close h. */
    mark_dirty(h);
    revents = io_revents(res, h->events);
    if (revents == 0) return;
    l->dispatched++;
    h->cb.io(h, h->data, 0, revents);
}

static void dispatch_signal(struct tasync_loop *l, int signum) {
    struct tasync_handle *h = l->watch_head, *last = l->watch_tail;
    if (signum == SIGCHLD && l->sigchld_users > 0) l->sigchld_check = 1;
    /* Handles opened by a callback are not called for this delivery. */
    while (h != NULL) {
        struct tasync_handle *next = h->watch_next;
        int at_end = h == last;
        if (h->kind == K_SIGNAL && h->signum == signum && !h->closed) {
            l->dispatched++;
            h->cb.signal(h, h->data, signum);
        }
        if (at_end) break;
        h = next;
    }
}

static void drain_signalfd(struct tasync_loop *l) {
    struct signalfd_siginfo si[8];
    for (;;) {
        ssize_t n = read(l->sig_fd, si, sizeof(si));
        size_t i, count;
        if (n <= 0) break;
        count = (size_t)n / sizeof(si[0]);
        for (i = 0; i < count; i++) {
            if (l->destroying) continue;
            dispatch_signal(l, (int)si[i].ssi_signo);
            forward_to_other_loops(l, (int)si[i].ssi_signo);
        }
        if ((size_t)n < sizeof(si)) break;
    }
}

/* Deliveries other loops read for this one (forward_to_other_loops). */
static void deliver_forwarded_signals(struct tasync_loop *l) {
    int signum;
    if (!atomic_exchange(&l->sig_forward_pending, 0)) return;
    for (signum = 1; signum < NSIG; signum++) {
        unsigned n = atomic_exchange(&l->sig_forwarded[signum], 0u);
        while (n-- > 0 && !l->destroying) dispatch_signal(l, signum);
    }
}

static void dispatch_cqe(struct tasync_loop *l, uint64_t ud, int res, unsigned flags) {
    int final = !(flags & IORING_CQE_F_MORE);
    void *p = ud_ptr(ud);
    if (ud == LIBURING_UDATA_TIMEOUT) return; /* liburing's own timeout on old kernels */
    if (final) l->kreqs--;
    switch (ud_tag(ud)) {
        case TAG_OP: on_op_cqe(l, p, res); break;
        case TAG_OP_POLL: on_op_poll_cqe(l, p, res); break;
        case TAG_HANDLE: on_handle_cqe(p, res); break;
        case TAG_WAKE: {
            uint64_t count;
            if (final) {
                l->wake_armed = 0;
                if (res == -EINVAL) l->oneshot_only = 1;
            }
            if (read(l->wake_fd, &count, sizeof(count)) < 0) {
                /* already drained */
            }
            break;
        }
        case TAG_SIGNAL:
            if (final) {
                l->sig_armed = 0;
                if (res == -EINVAL) l->oneshot_only = 1;
            }
            drain_signalfd(l);
            break;
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
    char why[200];
    int disabled = 0, group = -1;
    if (opts == NULL || opts->errbuf == NULL || opts->errbuf_size == 0) return;
    why[0] = '\0';
    if (read_int_file("/proc/sys/kernel/io_uring_disabled", &disabled) && disabled != 0) {
        if (disabled == 1 && read_int_file("/proc/sys/kernel/io_uring_group", &group) && group >= 0)
            snprintf(why, sizeof(why),
                     " (kernel.io_uring_disabled=1: only processes with CAP_SYS_ADMIN or in group %d,"
                     " kernel.io_uring_group, may create rings)", group);
        else if (disabled == 1)
            snprintf(why, sizeof(why),
                     " (kernel.io_uring_disabled=1: only processes with CAP_SYS_ADMIN may create rings)");
        else
            snprintf(why, sizeof(why), " (kernel.io_uring_disabled=%d)", disabled);
    } else if (err == -EPERM || err == -ENOSYS) {
        snprintf(why, sizeof(why),
                 " (kernel.io_uring_disabled is 0 or absent, so a seccomp filter, an LSM or the container"
                 " runtime refuses io_uring_setup%s)", err == -ENOSYS ? ", or the kernel lacks io_uring" : "");
    } else if (err == -ENOMEM) {
        snprintf(why, sizeof(why), " (out of memory, or RLIMIT_MEMLOCK too small on kernels before 5.12)");
    } else if (err == -EMFILE || err == -ENFILE) {
        snprintf(why, sizeof(why), " (no file descriptor left for the ring)");
    }
    snprintf(opts->errbuf, opts->errbuf_size, "io_uring_queue_init failed: %s%s", strerror(-err), why);
}

static void set_err(const tasync_loop_options_t *opts, const char *what, int err) {
    if (opts != NULL && opts->errbuf != NULL && opts->errbuf_size > 0)
        snprintf(opts->errbuf, opts->errbuf_size, "%s: %s", what, strerror(-err));
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

static int ring_setup(unsigned entries, struct io_uring *ring) {
    size_t i;
    int rc = -EINVAL;
    for (i = 0; i < sizeof(k_ring_flags) / sizeof(k_ring_flags[0]); i++) {
        struct io_uring_params p;
        memset(&p, 0, sizeof(p));
        p.flags = k_ring_flags[i];
        rc = io_uring_queue_init_params(entries, ring, &p);
        if (rc == 0) break;
        if (rc != -EINVAL) break;
    }
    return rc;
}

static int uring_loop_create_(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    struct tasync_loop *l;
    unsigned entries = DEFAULT_QUEUE_DEPTH;
    int rc;
    if (out == NULL) return -EINVAL;
    if (opts != NULL && opts->size >= offsetof(tasync_loop_options_t, reserved0) && opts->queue_depth != 0)
        entries = opts->queue_depth < 4 ? 4 : opts->queue_depth;
    l = calloc(1, sizeof(*l));
    if (l == NULL) return -ENOMEM;
    l->wake_fd = -1;
    l->sig_fd = -1;
    l->entries = entries;
    sigemptyset(&l->sig_mask);
    rc = ring_setup(entries, &l->ring);
    if (rc != 0) {
        set_setup_error(opts, rc);
        free(l);
        return rc;
    }
    l->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (l->wake_fd < 0) {
        rc = -errno;
        set_err(opts, "eventfd failed", rc);
        io_uring_queue_exit(&l->ring);
        free(l);
        return rc;
    }
    /* The wakeup poll is queued here and submitted by the first loop_run. */
    if (queue_internal_poll(l, l->wake_fd, TAG_WAKE) == 0) l->wake_armed = 1;
    *out = l;
    return 0;
}

/* G11, in a child after fork(): the ring, the wakeup eventfd and the
 * signalfd are shared with the parent (and a SINGLE_ISSUER ring refuses the
 * child anyway), so the loop gets new ones; the child's mapping of the old
 * ring is dropped, which leaves the parent's intact. Every request of the
 * old ring is forgotten: the polls of the handles are queued again for the
 * next loop_run, and completion ops finish there with -ECANCELED. */
static int uring_loop_fork_(tasync_loop_t *loop) {
    struct tasync_loop *l = loop;
    struct io_uring old = l->ring;
    struct tasync_handle *h, *next;
    tasync_op_t *op;
    int rc, wake, sig = -1;
    if (l == NULL) return -EINVAL;
    rc = ring_setup(l->entries, &l->ring);
    if (rc != 0) {
        l->ring = old;
        return rc;
    }
    wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake >= 0 && l->sig_fd >= 0) sig = signalfd(-1, &l->sig_mask, SFD_NONBLOCK | SFD_CLOEXEC);
    if (wake < 0 || (l->sig_fd >= 0 && sig < 0)) {
        rc = -errno;
        if (wake >= 0) close(wake);
        io_uring_queue_exit(&l->ring);
        l->ring = old;
        return rc;
    }
    io_uring_queue_exit(&old);
    close(l->wake_fd);
    l->wake_fd = wake;
    if (l->sig_fd >= 0) {
        close(l->sig_fd);
        l->sig_fd = sig;
    }
    l->kreqs = 0;
    l->wake_armed = 0;
    l->sig_armed = 0;
    if (queue_internal_poll(l, l->wake_fd, TAG_WAKE) == 0) l->wake_armed = 1;
    for (h = l->all; h != NULL; h = next) {
        next = h->all_next;
        h->armed = 0;
        h->removing = 0;
        if (h->closed) maybe_release(h);
        else if ((h->kind == K_IO && h->events != 0) || (h->kind == K_CHILD && !h->reaped && h->pidfd >= 0))
            mark_dirty(h);
    }
    for (op = l->ops; op != NULL; op = op->internal[3]) {
        op_set_state(op, op_state(op) | OPS_LOST);
        l->lost_ops = 1;
    }
    if (l->sig_registered) {
        pthread_mutex_lock(&g_sig_mu);
        l->sig_loop_next = g_sig_loops;
        g_sig_loops = l;
        pthread_mutex_unlock(&g_sig_mu);
    }
    return 0;
}

/* Ops that were in the parent's ring at a fork (G11). */
static void finish_lost_ops(struct tasync_loop *l) {
    tasync_op_t *op, *next;
    l->lost_ops = 0;
    for (op = l->ops; op != NULL; op = next) {
        next = op->internal[3];
        if (op_state(op) & OPS_LOST) op_finish(l, op, -ECANCELED);
    }
}

/* Marks h closed and drops what it holds outside the ring. Idempotent. */
static void close_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->closed) return;
    h->closed = 1;
    switch (h->kind) {
        case K_TIMER:
            heap_remove(l, h);
            h->due = 0;
            break;
        case K_SIGNAL:
            loop_unwatch_signal(l, h->signum);
            break;
        case K_CHILD:
            child_unwatch_sigchld(h);
            if (h->armed) mark_dirty(h);
            break;
        default:
            if (h->armed) mark_dirty(h);
            break;
    }
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
    tasync_op_t *op;
    if (l->wake_armed) queue_cancel(l, ud_pack(l, TAG_WAKE));
    if (l->sig_armed) queue_cancel(l, ud_pack(l, TAG_SIGNAL));
    for (h = l->all; h != NULL; h = h->all_next) {
        if (h->armed) queue_cancel(l, ud_pack(h, TAG_HANDLE));
    }
    for (op = l->ops; op != NULL; op = op->internal[3]) queue_cancel(l, op_current_ud(op));
}

static void uring_loop_destroy_(tasync_loop_t *loop) {
    struct tasync_handle *h;
    unsigned round, idle;
    if (loop == NULL) return;
    loop->destroying = 1;
    loop->in_run++;
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
    loop_forget_signals(loop);
    if (loop->wake_fd >= 0) close(loop->wake_fd);
    if (loop->sig_fd >= 0) close(loop->sig_fd);
    free(loop->heap);
    free(loop);
}

/*
 * One loop iteration: queue what table calls asked for, submit the batch and
 * wait in a single io_uring_enter, dispatch the CQEs, then the due timers.
 *
 * Avoiding the system call in loop_run(0): the CQ ring is shared memory, so
 * completions already posted are seen by reading its tail. With
 * DEFER_TASKRUN, however, the kernel does not post completions by itself:
 * a ready poll or a finished read only queues task work for the loop's
 * thread, which runs when that thread enters io_uring_enter with GETEVENTS;
 * a pure CQ peek would miss those completions forever. The ring is created
 * with IORING_SETUP_TASKRUN_FLAG, so the kernel sets IORING_SQ_TASKRUN in the
 * shared SQ flags as soon as such work is queued (and IORING_SQ_CQ_OVERFLOW
 * when CQEs wait in the overflow list). loop_run(0) therefore enters the
 * kernel only if there are SQEs to submit or one of those flags is set, and
 * then in one call (io_uring_submit_and_get_events, or io_uring_get_events
 * when nothing is queued). Otherwise it costs a few loads. The same test is
 * right for the fallback rings: COOP_TASKRUN also reports pending task work
 * through IORING_SQ_TASKRUN, and without either flag the kernel posts
 * completions on its own.
 */
static int uring_loop_run_(tasync_loop_t *loop, int64_t timeout_ns) {
    struct io_uring *ring = &loop->ring;
    int64_t wait = timeout_ns;
    int rc = 0, result;
    unsigned extra, max_extra;
    loop->dispatched = 0;
    loop->in_run++;
    if (loop->lost_ops) finish_lost_ops(loop);
    flush_dirty(loop);
    if (wait != 0 && (loop->dispatched > 0 || io_uring_cq_ready(ring) > 0 || loop->sigchld_check || atomic_load(&loop->sig_forward_pending)))
        wait = 0;
    if (wait != 0 && loop->heap_len > 0) {
        /* A deadline more than INT64_MAX ns away (timeout UINT64_MAX) must
         * not turn into a negative "wait forever" that ignores the
         * caller's timeout. */
        uint64_t now = now_ns(), top = loop->heap[0]->deadline_ns;
        uint64_t until = top > now ? top - now : 0;
        if (until > (uint64_t)INT64_MAX) until = (uint64_t)INT64_MAX;
        if (wait < 0 || (int64_t)until < wait) wait = (int64_t)until;
    }
    if (wait == 0) {
        if (io_uring_sq_ready(ring) > 0)
            rc = io_uring_submit_and_get_events(ring);
        else if (IO_URING_READ_ONCE(*ring->sq.kflags) & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW))
            rc = io_uring_get_events(ring);
    } else if (wait < 0) {
        /* No deadline: one io_uring_enter(GETEVENTS, min_complete 1).
         * io_uring_submit_and_wait goes straight to it, where
         * io_uring_submit_and_wait_timeout without a timeout first walks
         * liburing's generic get-CQE loop; this is the path every
         * request/response wait takes. */
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
    /* CQEs that did not fit in the CQ ring wait in the kernel's overflow
     * list (IORING_FEAT_NODROP). Fetch them all now: G5 wants every ready
     * fd reported by every loop_run, and 10 000 ready fds are 20 ring-fuls
     * (stopping after four reported 2 560 of them per run). The bound only
     * keeps callbacks that submit more and more from holding the run. */
    max_extra = loop->kreqs / (ring->cq.ring_entries != 0 ? ring->cq.ring_entries : 1) + 2;
    for (extra = 0; extra < max_extra && io_uring_cq_has_overflow(ring); extra++) {
        io_uring_get_events(ring);
        process_cqes(loop);
    }
    deliver_forwarded_signals(loop);
    if (loop->sigchld_check) reap_sigchld_children(loop);
    run_timers(loop);
    result = loop->dispatched;
    loop->in_run--;
    free_zombies(loop);
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
    (void)loop;
    return now_ns();
}

/* ---------------------------------------------------------------- timers */

static int uring_timer_open_(tasync_loop_t *loop, tasync_timer_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    h = new_handle(loop, K_TIMER, data);
    if (h == NULL) return -ENOMEM;
    h->cb.timer = cb;
    *out = h;
    return 0;
}

static int uring_timer_start_(tasync_handle_t *h, uint64_t timeout_ns, uint64_t repeat_ns) {
    struct tasync_loop *l;
    uint64_t now;
    if (h == NULL || h->kind != K_TIMER || h->closed) return -EINVAL;
    l = h->loop;
    heap_remove(l, h);
    h->due = 0;
    now = now_ns();
    h->deadline_ns = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
    h->repeat_ns = repeat_ns;
    h->seq = l->timer_seq++;
    return heap_push(l, h);
}

static int uring_timer_stop_(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_TIMER) return -EINVAL;
    heap_remove(h->loop, h);
    h->due = 0;
    return 0;
}

/* -------------------------------------------------------------------- io */

static int uring_io_open_(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL || fd < 0) return -EINVAL;
    /* The ring would only say so in a CQE; refuse a bad fd right away. */
    if (fcntl(fd, F_GETFD) < 0) return -errno;
    h = new_handle(loop, K_IO, data);
    if (h == NULL) return -ENOMEM;
    h->cb.io = cb;
    h->fd = fd;
    *out = h;
    return 0;
}

static int uring_io_start_(tasync_handle_t *h, unsigned events) {
    if (h == NULL || h->kind != K_IO || h->closed) return -EINVAL;
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE | TASYNC_IO_PRIORITY;
    if (events == h->events) return 0;
    h->events = events;
    mark_dirty(h);
    return 0;
}

static int uring_io_stop_(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_IO) return -EINVAL;
    if (h->events == 0) return 0;
    h->events = 0;
    if (h->armed) mark_dirty(h);
    return 0;
}

/* --------------------------------------------------------------- signals */

static int uring_signal_open_(tasync_loop_t *loop, int signum, tasync_signal_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    int rc;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    /* signalfd cannot take SIGKILL/SIGSTOP; 32..SIGRTMIN-1 belong to libc. */
    if (signum <= 0 || signum >= NSIG || signum == SIGKILL || signum == SIGSTOP ||
        (signum >= 32 && signum < SIGRTMIN))
        return -EINVAL;
    h = new_handle(loop, K_SIGNAL, data);
    if (h == NULL) return -ENOMEM;
    h->cb.signal = cb;
    h->signum = signum;
    rc = loop_watch_signal(loop, signum);
    if (rc != 0) {
        free_handle(h);
        return rc;
    }
    watch_link(h);
    *out = h;
    return 0;
}

/* ----------------------------------------------------------------- child */

static int uring_child_open_(tasync_loop_t *loop, int pid, tasync_child_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    siginfo_t si;
    if (loop == NULL || cb == NULL || out == NULL || pid <= 0) return -EINVAL;
    /* Refuse what is not a child of ours, without reaping it. */
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) return -errno;
    h = new_handle(loop, K_CHILD, data);
    if (h == NULL) return -ENOMEM;
    h->cb.child = cb;
    h->pid = pid;
    if (g_have_pidfd) h->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (h->pidfd >= 0) {
        /* Polled from the next loop_run on; an exited child is ready at
         * once. */
        mark_dirty(h);
    } else {
        int rc = loop_watch_signal(loop, SIGCHLD);
        if (rc != 0) {
            free_handle(h);
            return rc;
        }
        h->sigchld = 1;
        loop->sigchld_users++;
        loop->sigchld_check = 1; /* it may have exited already */
        watch_link(h);
    }
    *out = h;
    return 0;
}

/* ----------------------------------------------------------------- close */

static void uring_handle_close_(tasync_handle_t *h) {
    if (h == NULL || h->closed) return;
    close_handle(h);
    maybe_release(h);
}

/* --------------------------------------------------- completion operations */

static int uring_op_submit_(tasync_loop_t *loop, tasync_op_t *op) {
    struct io_uring_sqe *sqe;
    if (loop == NULL || op == NULL || op->size < sizeof(tasync_op_t) || op->cb == NULL) return -EINVAL;
    if (op->opcode >= TASYNC_OP_COUNT_ || !(g_op_mask & TASYNC_OP_BIT(op->opcode))) return -EINVAL;
    if (((uintptr_t)op & OP_ALIGN_MASK) != 0 || loop->destroying) return -EINVAL;
    sqe = get_sqe(loop);
    if (sqe == NULL) return -EBUSY;
    op->result = 0;
    op_link(loop, op);
    prep_op(sqe, op, 1);
    count_request(loop, sqe, ud_pack(op, TAG_OP));
    return 0;
}

/* Asks the kernel to cancel op: its CQE then carries -ECANCELED, or its real
 * result if it won the race; either way the callback runs once (G9). */
static int uring_op_cancel_(tasync_loop_t *loop, tasync_op_t *op) {
    unsigned st;
    int rc;
    if (loop == NULL || op == NULL || op->internal[0] != (void *)loop) return -ENOENT;
    st = op_state(op);
    if (st & OPS_CANCEL) return 0;
    rc = queue_cancel(loop, op_current_ud(op));
    if (rc == 0) op_set_state(op, st | OPS_CANCEL);
    return rc;
}

/* ----------------------------------------------------------------- table */

static char g_version[128];

static tasync_backend_t g_table = {
    sizeof(tasync_backend_t),
    TASYNC_ABI_VERSION,
    URING_BACKEND_NAME,
    g_version,
    TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY,
    0,
    uring_loop_create_,
    uring_loop_destroy_,
    uring_loop_run_,
    uring_loop_wakeup_,
    uring_loop_now_,
    uring_timer_open_,
    uring_timer_start_,
    uring_timer_stop_,
    uring_io_open_,
    uring_io_start_,
    uring_io_stop_,
    uring_handle_close_,
    uring_signal_open_,
    uring_child_open_,
    uring_op_submit_,
    uring_op_cancel_,
    NULL,
    NULL,
    uring_loop_fork_,
};

/* Finds the version of the liburing actually loaded from its file name
 * (liburing.so.2.3); liburing 2.3 has no version query. */
static int find_liburing(struct dl_phdr_info *info, size_t size, void *arg) {
    char real[PATH_MAX];
    const char *base;
    (void)size;
    if (info->dlpi_name == NULL || strstr(info->dlpi_name, "liburing.so") == NULL) return 0;
    if (realpath(info->dlpi_name, real) == NULL) snprintf(real, sizeof(real), "%s", info->dlpi_name);
    base = strstr(real, "liburing.so.");
    if (base != NULL) snprintf(arg, 16, "%s", base + strlen("liburing.so."));
    return 1;
}

/* Runs once when the shared object is loaded: fills in what depends on the
 * library and kernel found at run time. */
__attribute__((constructor)) static void uring_backend_init(void) {
    static const struct {
        int tasync;
        int uring;
    } ops[] = {
        {TASYNC_OP_NOP, IORING_OP_NOP},       {TASYNC_OP_READ, IORING_OP_READ},
        {TASYNC_OP_WRITE, IORING_OP_WRITE},   {TASYNC_OP_RECV, IORING_OP_RECV},
        {TASYNC_OP_SEND, IORING_OP_SEND},     {TASYNC_OP_ACCEPT, IORING_OP_ACCEPT},
        {TASYNC_OP_CONNECT, IORING_OP_CONNECT}, {TASYNC_OP_CLOSE, IORING_OP_CLOSE},
        {TASYNC_OP_FSYNC, IORING_OP_FSYNC},   {TASYNC_OP_OPENAT, IORING_OP_OPENAT},
    };
    struct io_uring_probe *probe = io_uring_get_probe();
    char libver[16] = "";
    struct utsname un;
    size_t i;
    int fd = -1;
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        /* Without a probe (io_uring refused) loop_create fails anyway and
         * says why; advertise the full set. */
        if (probe == NULL || io_uring_opcode_supported(probe, ops[i].uring))
            g_op_mask |= TASYNC_OP_BIT(ops[i].tasync);
    }
    if (probe != NULL) io_uring_free_probe(probe);
    pthread_atfork(sig_atfork_prepare, sig_atfork_parent, sig_atfork_child);
    g_table.op_mask = g_op_mask;
    if (g_op_mask != 0) g_table.capabilities |= TASYNC_CAP_COMPLETION;
#ifndef TASYNC_URING_TEST_NO_PIDFD
    fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
#endif
    if (fd >= 0) {
        g_have_pidfd = 1;
        g_table.capabilities |= TASYNC_CAP_PIDFD;
        close(fd);
    }
    dl_iterate_phdr(find_liburing, libver);
    if (uname(&un) != 0) snprintf(un.release, sizeof(un.release), "?");
    snprintf(g_version, sizeof(g_version), "liburing%s%s (kernel io_uring, Linux %s)", libver[0] ? " " : "", libver,
             un.release);
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
