/*
 * tasync-backend-ev: the reactor contract (api/include/tasync/reactor.h) on
 * libev (>= 4.0). Exports only tasync_backend_entry.
 *
 * Every loop is its own ev_loop_new() loop, so runtimes on different threads
 * never share libev state (G1). The default loop is never touched: libev
 * runs ev_signal and ev_child only there, so this file does not use them.
 *
 * Notes on libev that shape this file:
 *  - Readiness: one ev_io per io handle. libev's epoll backend is
 *    level-triggered, which is what G5 asks for. libev folds EPOLLHUP and
 *    EPOLLERR into readable/writable readiness and has no priority events,
 *    so TASYNC_IO_HANGUP and TASYNC_IO_ERROR are never reported (a hangup
 *    or a pending error shows as readiness for the interests asked, and the
 *    caller's read/write then returns 0 or the error), and an interest in
 *    TASYNC_IO_PRIORITY is refused with -ENOTSUP.
 *  - libev aborts (an assertion in its epoll backend) when epoll_ctl meets a
 *    closed fd. G4 lets the caller close an fd while its handle is open, so
 *    every io handle whose registration changed since the last loop_run is
 *    checked with fcntl before ev_run hands the change to epoll; a closed fd
 *    gets a -EBADF callback instead. (libev registers an unchanged fd again
 *    only after it saw events for an fd it no longer knows, which needs a
 *    second descriptor of the same file kept open elsewhere; a caller that
 *    closes handles before their fds, as the core does, never meets it.)
 *  - Timers: libev keeps deadlines as doubles of its cached time and orders
 *    equal deadlines arbitrarily, while G6 wants "never early" against
 *    loop_now (integer ns) and ties in start order. Timer handles therefore
 *    live in a binary heap here, ordered by (deadline, start sequence); one
 *    ev_timer per loop bounds the wait of ev_run to the earliest deadline or
 *    the caller's timeout, armed after ev_now_update so that libev's cached
 *    time does not make it fire early.
 *  - Signals: a process-wide handler (installed with sigaction while any
 *    loop watches the signal, chained to the handler it replaced, restored
 *    afterwards) counts each delivery in a lock-free slot per watching loop
 *    and wakes that loop with ev_async_send, which libev documents as safe
 *    in a signal handler. Every loop watching a signal sees every delivery,
 *    whichever thread the kernel ran the handler on.
 *  - Child exits: a pidfd (pidfd_open) watched by an ev_io. Where pidfd_open
 *    is missing, SIGCHLD through the same signal machinery, then waitid on
 *    each child the loop watches.
 *  - Wakeup: ev_async, whose send is thread-safe.
 *  - G3: ev_*_stop also drops an event already pending in the current
 *    ev_run, and a closed handle stays allocated until its loop_run ends.
 *
 * One compile-time switch exists for tests only and is off in every
 * installed build: TASYNC_EV_TEST_NO_PIDFD takes the SIGCHLD path for child
 * watches.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EV_BACKEND_NAME "ev"

enum handle_kind { K_TIMER = 1, K_IO, K_SIGNAL, K_CHILD };

struct sig_slot;

struct tasync_loop {
    struct ev_loop *ev;
    ev_async wakeup;     /* loop_wakeup */
    ev_async sig_wakeup; /* sent by the signal handler */
    ev_timer wait_timer; /* bounds the wait of one loop_run */
    int in_run;
    int dispatched;
    /* Every handle not yet freed, closed or not. */
    struct tasync_handle *all;
    /* Io handles whose libev registration changed since the last loop_run
     * (singly linked; a closed handle stays allocated while on it). */
    struct tasync_handle *dirty;
    /* Closed handles freed when the current loop_run ends. */
    struct tasync_handle *zombies;
    /* Signal handles and child handles waiting for SIGCHLD, in open order. */
    struct tasync_handle *watch_head, *watch_tail;
    /* Timer heap ordered by (deadline, seq). */
    struct tasync_handle **heap;
    size_t heap_len, heap_cap;
    uint64_t timer_seq;
    /* Signals: users per signal (signal handles plus the SIGCHLD path of
     * child handles), and the registry slot while any signal is watched. */
    int sig_count[NSIG];
    int sig_watched;
    struct sig_slot *slot;
    int sigchld_users; /* child handles without a pidfd */
    int sigchld_check; /* try reaping them in this loop_run */
};

struct tasync_handle {
    int kind;
    unsigned char closed;   /* handle_close was called: no more callbacks */
    unsigned char in_dirty;
    unsigned char in_watch;
    unsigned char in_zombies;
    unsigned char due;      /* timers: collected to fire in this loop_run */
    unsigned char reaped;   /* children: the callback was delivered */
    unsigned char sigchld;  /* children: counted in loop->sigchld_users */
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
    /* io (fd) and child (pidfd) */
    int fd;
    unsigned events; /* io: wanted TASYNC_IO_READABLE|WRITABLE; 0 = stopped */
    ev_io io;
    /* signal */
    int signum;
    /* child */
    int pid;
};

#define NOT_IN_HEAP ((size_t)-1)

static int g_have_pidfd;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ============================================================ signals
 *
 * The registry: blocks of slots, one slot per loop that watches at least
 * one signal. Blocks are never freed, so the handler, which may run on any
 * thread at any time, only ever reads live memory; it touches atomics only.
 * A slot's loop pointer is published after the loop's sig_wakeup watcher
 * is started and withdrawn (waiting out handlers still using it) before the
 * loop goes away. Claiming, releasing and installing handlers happen under
 * g_sig_mu.
 */

#define SLOTS_PER_BLOCK 16

struct sig_slot {
    _Atomic(struct tasync_loop *) loop;
    atomic_int busy;                /* handlers using loop right now */
    atomic_uchar watched[NSIG];
    atomic_uint pending[NSIG];      /* deliveries not yet dispatched */
    int claimed;                    /* under g_sig_mu */
};

struct sig_block {
    struct sig_slot slots[SLOTS_PER_BLOCK];
    _Atomic(struct sig_block *) next;
};

static pthread_mutex_t g_sig_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sig_block g_sig_blocks;
static int g_sig_users[NSIG];                 /* loops watching each signal */
static unsigned char g_sig_installed[NSIG];   /* our handler is installed */
static struct sigaction g_sig_old[NSIG];      /* what it replaced */

static void on_process_signal(int signum, siginfo_t *info, void *ctx) {
    int saved = errno;
    struct sig_block *b;
    const struct sigaction *old = &g_sig_old[signum];
    for (b = &g_sig_blocks; b != NULL; b = atomic_load(&b->next)) {
        int i;
        for (i = 0; i < SLOTS_PER_BLOCK; i++) {
            struct sig_slot *s = &b->slots[i];
            struct tasync_loop *l;
            if (!atomic_load(&s->watched[signum])) continue;
            atomic_fetch_add(&s->busy, 1);
            l = atomic_load(&s->loop);
            if (l != NULL && atomic_load(&s->watched[signum])) {
                atomic_fetch_add(&s->pending[signum], 1u);
                ev_async_send(l->ev, &l->sig_wakeup);
            }
            atomic_fetch_sub(&s->busy, 1);
        }
    }
    /* Chain to the handler we replaced (e.g. one pcntl installed). The
     * default action is not taken: watching a signal means handling it. */
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        if (!(old->sa_flags & SA_SIGINFO)) old->sa_handler(signum);
        else if (old->sa_sigaction != on_process_signal) old->sa_sigaction(signum, info, ctx);
    }
    errno = saved;
}

/* Finds a free slot (allocating a block when all are taken). Under g_sig_mu. */
static struct sig_slot *claim_slot(void) {
    struct sig_block *b = &g_sig_blocks, *last = NULL;
    for (; b != NULL; last = b, b = atomic_load(&b->next)) {
        int i;
        for (i = 0; i < SLOTS_PER_BLOCK; i++) {
            if (!b->slots[i].claimed) {
                b->slots[i].claimed = 1;
                return &b->slots[i];
            }
        }
    }
    b = calloc(1, sizeof(*b));
    if (b == NULL) return NULL;
    b->slots[0].claimed = 1;
    atomic_store(&last->next, b); /* published fully initialised */
    return &b->slots[0];
}

/* Withdraws the slot from its loop. Under g_sig_mu. */
static void release_slot(struct sig_slot *s) {
    int i;
    for (i = 0; i < NSIG; i++) atomic_store(&s->watched[i], 0);
    atomic_store(&s->loop, NULL);
    /* A handler that saw the loop pointer may still be sending to it. */
    while (atomic_load(&s->busy) != 0) sched_yield();
    s->claimed = 0;
}

/* Makes the loop see deliveries of signum. */
static int registry_watch(struct tasync_loop *l, int signum) {
    int rc = 0;
    pthread_mutex_lock(&g_sig_mu);
    if (l->slot == NULL) {
        l->slot = claim_slot();
        if (l->slot == NULL) {
            rc = -ENOMEM;
            goto out;
        }
        atomic_store(&l->slot->loop, l);
    }
    if (!g_sig_installed[signum]) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_process_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        /* g_sig_old is written before the handler can run. */
        if (sigaction(signum, NULL, &g_sig_old[signum]) != 0 || sigaction(signum, &sa, NULL) != 0) {
            rc = -errno;
            if (l->sig_watched == 0) {
                release_slot(l->slot);
                l->slot = NULL;
            }
            goto out;
        }
        g_sig_installed[signum] = 1;
    }
    g_sig_users[signum]++;
    atomic_store(&l->slot->pending[signum], 0u);
    atomic_store(&l->slot->watched[signum], 1);
    l->sig_watched++;
out:
    pthread_mutex_unlock(&g_sig_mu);
    return rc;
}

static void registry_unwatch(struct tasync_loop *l, int signum) {
    pthread_mutex_lock(&g_sig_mu);
    atomic_store(&l->slot->watched[signum], 0);
    if (--g_sig_users[signum] == 0) {
        /* Give the signal back, unless someone installed a handler over
         * ours since (it may chain to us, so ours stays "installed"). */
        struct sigaction cur;
        if (sigaction(signum, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == on_process_signal) {
            sigaction(signum, &g_sig_old[signum], NULL);
            g_sig_installed[signum] = 0;
        }
    }
    if (--l->sig_watched == 0) {
        release_slot(l->slot);
        l->slot = NULL;
    }
    pthread_mutex_unlock(&g_sig_mu);
}

/* The registry stays consistent across fork(): its lock is held through
 * it. In the child, slots of loops of threads that did not survive stay
 * claimed and may still be sent a (spurious) wakeup; nothing else reads
 * them. */
static void sig_atfork_prepare(void) { pthread_mutex_lock(&g_sig_mu); }
static void sig_atfork_unlock(void) { pthread_mutex_unlock(&g_sig_mu); }

static int loop_watch_signal(struct tasync_loop *l, int signum) {
    int rc;
    if (l->sig_count[signum]++ > 0) return 0;
    rc = registry_watch(l, signum);
    if (rc != 0) l->sig_count[signum]--;
    return rc;
}

static void loop_unwatch_signal(struct tasync_loop *l, int signum) {
    if (l->sig_count[signum] == 0 || --l->sig_count[signum] > 0) return;
    registry_unwatch(l, signum);
}

/* ====================================================== handle lists */

static struct tasync_handle *new_handle(struct tasync_loop *l, int kind, void *data) {
    struct tasync_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) return NULL;
    h->kind = kind;
    h->loop = l;
    h->data = data;
    h->fd = -1;
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
    if (h->in_dirty) return;
    h->in_dirty = 1;
    h->dirty_next = h->loop->dirty;
    h->loop->dirty = h;
}

static void free_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    watch_unlink(h);
    if (h->all_prev != NULL) h->all_prev->all_next = h->all_next;
    else l->all = h->all_next;
    if (h->all_next != NULL) h->all_next->all_prev = h->all_prev;
    free(h);
}

/* Frees a closed handle once nothing refers to it. Inside loop_run the
 * memory is kept until the run ends: a dispatcher may be walking a list the
 * handle is on, or be about to return into its callback's caller. Lists are
 * only unlinked when the handle is freed, so walks stay valid. */
static void maybe_release(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (!h->closed || h->in_dirty || h->in_zombies) return;
    if (l->in_run) {
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

/* ============================================================ timers */

static int timer_before(const struct tasync_handle *a, const struct tasync_handle *b) {
    if (a->deadline_ns != b->deadline_ns) return a->deadline_ns < b->deadline_ns;
    return a->seq < b->seq;
}

static void heap_place(struct tasync_loop *l, size_t i, struct tasync_handle *h) {
    l->heap[i] = h;
    h->heap_index = i;
}

static void heap_up(struct tasync_loop *l, size_t i) {
    struct tasync_handle *h = l->heap[i];
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!timer_before(h, l->heap[up])) break;
        heap_place(l, i, l->heap[up]);
        i = up;
    }
    heap_place(l, i, h);
}

static void heap_down(struct tasync_loop *l, size_t i) {
    struct tasync_handle *h = l->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= l->heap_len) break;
        if (c + 1 < l->heap_len && timer_before(l->heap[c + 1], l->heap[c])) c++;
        if (!timer_before(l->heap[c], h)) break;
        heap_place(l, i, l->heap[c]);
        i = c;
    }
    heap_place(l, i, h);
}

static int heap_push(struct tasync_loop *l, struct tasync_handle *h) {
    if (l->heap_len == l->heap_cap) {
        size_t cap = l->heap_cap ? l->heap_cap * 2 : 16;
        struct tasync_handle **grown = realloc(l->heap, cap * sizeof(*grown));
        if (grown == NULL) return -ENOMEM;
        l->heap = grown;
        l->heap_cap = cap;
    }
    l->heap[l->heap_len] = h;
    h->heap_index = l->heap_len++;
    heap_up(l, h->heap_index);
    return 0;
}

static void heap_remove(struct tasync_loop *l, struct tasync_handle *h) {
    size_t i = h->heap_index;
    struct tasync_handle *last;
    if (i == NOT_IN_HEAP) return;
    h->heap_index = NOT_IN_HEAP;
    last = l->heap[--l->heap_len];
    if (i == l->heap_len) return;
    heap_place(l, i, last);
    if (i > 0 && timer_before(last, l->heap[(i - 1) / 2])) heap_up(l, i);
    else heap_down(l, i);
}

/* Fires the timers due now (G6): collected first, in deadline order with
 * ties in start order, then called. A timer started or re-armed by a
 * callback waits for the next loop_run, so a run always ends. */
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
            /* From the scheduled time; periods the loop slept through are
             * skipped rather than fired in a burst. */
            uint64_t next = h->deadline_ns + h->repeat_ns;
            if (next <= now) next += ((now - next) / h->repeat_ns + 1) * h->repeat_ns;
            h->deadline_ns = next;
            h->seq = l->timer_seq++;
            if (heap_push(l, h) != 0) h->repeat_ns = 0;
        }
        l->dispatched++;
        h->cb.timer(h, h->data);
    }
}

/* ========================================================== children */

static void child_unwatch_sigchld(struct tasync_handle *h) {
    if (!h->sigchld) return;
    h->sigchld = 0;
    h->loop->sigchld_users--;
    loop_unwatch_signal(h->loop, SIGCHLD);
}

/* Stops what watches the child: its pidfd or its SIGCHLD use. */
static void child_stop(struct tasync_handle *h) {
    if (h->fd >= 0) {
        ev_io_stop(h->loop->ev, &h->io);
        close(h->fd);
        h->fd = -1;
    }
    child_unwatch_sigchld(h);
}

/* Reaps the child if it has exited and calls back (the last thing done with
 * h, since the callback may close it). Returns 1 when reaped. */
static int try_reap(struct tasync_handle *h) {
    siginfo_t si;
    int exit_status = 0, term_signal = 0;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)h->pid, &si, WEXITED | WNOHANG) != 0) {
        if (errno == EINTR) return 0;
        exit_status = -1; /* ECHILD: someone else reaped it (e.g. pcntl_waitpid) */
    } else if (si.si_pid == 0) {
        return 0; /* still running */
    } else if (si.si_code == CLD_EXITED) {
        exit_status = si.si_status;
    } else {
        term_signal = si.si_status;
    }
    h->reaped = 1;
    child_stop(h);
    h->loop->dispatched++;
    h->cb.child(h, h->data, h->pid, exit_status, term_signal);
    return 1;
}

/* The SIGCHLD path: try every child handle of the loop without a pidfd
 * that was open when the walk began. */
static void reap_sigchld_children(struct tasync_loop *l) {
    struct tasync_handle *h = l->watch_head, *last = l->watch_tail;
    l->sigchld_check = 0;
    while (h != NULL) {
        struct tasync_handle *next = h->watch_next;
        int at_end = h == last;
        if (h->kind == K_CHILD && h->sigchld && !h->closed && !h->reaped) try_reap(h);
        if (at_end) break;
        h = next;
    }
}

/* ========================================================= callbacks */

static void on_io(struct ev_loop *ev, ev_io *w, int revents) {
    struct tasync_handle *h = w->data;
    struct tasync_loop *l = h->loop;
    unsigned ready = 0;
    (void)ev;
    if (h->closed) return;
    if (h->kind == K_CHILD) {
        if (!h->reaped) try_reap(h);
        return;
    }
    if (revents & EV_ERROR) {
        /* libev could not (re)register the fd and has stopped the watcher. */
        int err = fcntl(h->fd, F_GETFD) < 0 ? -errno : -EIO;
        ev_io_stop(l->ev, &h->io);
        h->events = 0;
        l->dispatched++;
        h->cb.io(h, h->data, err, 0);
        return;
    }
    if (revents & EV_READ) ready |= TASYNC_IO_READABLE;
    if (revents & EV_WRITE) ready |= TASYNC_IO_WRITABLE;
    ready &= h->events;
    if (ready == 0) return;
    l->dispatched++;
    h->cb.io(h, h->data, 0, ready);
}

/* Calls every signal handle of signum that was open when the walk began,
 * once per counted delivery. */
static void dispatch_signal(struct tasync_loop *l, int signum, unsigned count) {
    struct tasync_handle *last = l->watch_tail;
    unsigned i;
    for (i = 0; i < count; i++) {
        struct tasync_handle *h = l->watch_head;
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
}

static void on_sig_wakeup(struct ev_loop *ev, ev_async *w, int revents) {
    struct tasync_loop *l = w->data;
    int signum;
    (void)ev;
    (void)revents;
    for (signum = 1; signum < NSIG; signum++) {
        unsigned count;
        /* A callback may have dropped the last watch: re-read each time. */
        if (l->slot == NULL) break;
        if (l->sig_count[signum] == 0) continue;
        count = atomic_exchange(&l->slot->pending[signum], 0u);
        if (count == 0) continue;
        if (signum == SIGCHLD && l->sigchld_users > 0) l->sigchld_check = 1;
        dispatch_signal(l, signum, count);
    }
    if (l->sigchld_check) reap_sigchld_children(l);
}

static void on_nothing_async(struct ev_loop *ev, ev_async *w, int revents) {
    (void)ev;
    (void)w;
    (void)revents;
}

static void on_nothing_timer(struct ev_loop *ev, ev_timer *w, int revents) {
    (void)ev;
    (void)w;
    (void)revents;
}

/* Hands -EBADF to io handles whose fd was closed under them before libev
 * registers the change with epoll (which would abort on a closed fd). */
static void check_dirty(struct tasync_loop *l) {
    while (l->dirty != NULL) {
        struct tasync_handle *h = l->dirty;
        l->dirty = h->dirty_next;
        h->in_dirty = 0;
        if (h->closed) {
            maybe_release(h);
            continue;
        }
        if (h->events != 0 && fcntl(h->fd, F_GETFD) < 0) {
            int err = -errno;
            ev_io_stop(l->ev, &h->io);
            h->events = 0;
            l->dispatched++;
            h->cb.io(h, h->data, err, 0);
        }
    }
}

/* ============================================================== loop */

static void set_err(const tasync_loop_options_t *opts, const char *fmt, int err) {
    if (opts != NULL && opts->size >= offsetof(tasync_loop_options_t, errbuf_size) + sizeof(size_t) &&
        opts->errbuf != NULL && opts->errbuf_size > 0)
        snprintf(opts->errbuf, opts->errbuf_size, fmt, strerror(err));
}

static int ev_loop_create_(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    struct tasync_loop *l;
    if (out == NULL) return -EINVAL;
    l = calloc(1, sizeof(*l));
    if (l == NULL) return -ENOMEM;
    /* EVFLAG_NOSIGMASK: libev leaves the thread's signal mask alone. */
    errno = 0;
    l->ev = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOSIGMASK);
    if (l->ev == NULL) {
        int err = errno != 0 ? errno : ENOSYS;
        set_err(opts, "libev could not create a loop (ev_loop_new): %s", err);
        free(l);
        return -err;
    }
    /* Both asyncs stay referenced: they keep ev_run blocking when the loop
     * has nothing else to wait for, as loop_run(-1) must. */
    ev_async_init(&l->wakeup, on_nothing_async);
    l->wakeup.data = l;
    ev_async_start(l->ev, &l->wakeup);
    ev_async_init(&l->sig_wakeup, on_sig_wakeup);
    l->sig_wakeup.data = l;
    ev_async_start(l->ev, &l->sig_wakeup);
    ev_timer_init(&l->wait_timer, on_nothing_timer, 0., 0.);
    l->wait_timer.data = l;
    *out = l;
    return 0;
}

/* Marks h closed and stops what it watches. No callback. Idempotent. */
static void close_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->closed) return;
    h->closed = 1;
    switch (h->kind) {
        case K_TIMER:
            heap_remove(l, h);
            h->due = 0;
            break;
        case K_IO:
            ev_io_stop(l->ev, &h->io);
            h->events = 0;
            break;
        case K_SIGNAL:
            loop_unwatch_signal(l, h->signum);
            break;
        case K_CHILD:
            child_stop(h);
            break;
        default:
            break;
    }
}

static void ev_loop_destroy_(tasync_loop_t *loop) {
    struct tasync_handle *h;
    if (loop == NULL) return;
    for (h = loop->all; h != NULL; h = h->all_next) close_handle(h);
    /* Closing the signal and child handles gave the registry slot back. */
    ev_timer_stop(loop->ev, &loop->wait_timer);
    ev_async_stop(loop->ev, &loop->sig_wakeup);
    ev_async_stop(loop->ev, &loop->wakeup);
    ev_loop_destroy(loop->ev);
    while (loop->all != NULL) free_handle(loop->all);
    free(loop->heap);
    free(loop);
}

/*
 * One iteration: check changed io registrations, run libev once (waiting at
 * most until the earliest timer or the caller's timeout), then fire the
 * timers that are due. libev dispatches io, child and signal events from
 * inside ev_run.
 */
static int ev_loop_run_(tasync_loop_t *loop, int64_t timeout_ns) {
    int64_t wait = timeout_ns;
    int armed = 0;
    if (loop == NULL) return -EINVAL;
    if (loop->in_run) return -EBUSY; /* not re-entrant */
    loop->in_run = 1;
    loop->dispatched = 0;
    check_dirty(loop);
    if (loop->sigchld_check) reap_sigchld_children(loop);
    if (loop->dispatched > 0) wait = 0;
    if (wait != 0 && loop->heap_len > 0) {
        uint64_t now = now_ns(), top = loop->heap[0]->deadline_ns;
        /* A far deadline (a timeout near UINT64_MAX) must stay a long wait,
         * not turn negative, which means "no limit". */
        uint64_t left = top > now ? top - now : 0;
        int64_t until = left > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)left;
        if (wait < 0 || until < wait) wait = until;
    }
    if (wait > 0) {
        /* libev's clock is cached from its last iteration: refresh it, or
         * the wait would end early by however long the caller ran. */
        ev_now_update(loop->ev);
        ev_timer_set(&loop->wait_timer, (ev_tstamp)wait * 1e-9, 0.);
        ev_timer_start(loop->ev, &loop->wait_timer);
        armed = 1;
    }
    ev_run(loop->ev, wait == 0 ? EVRUN_NOWAIT : EVRUN_ONCE);
    if (armed) ev_timer_stop(loop->ev, &loop->wait_timer);
    run_timers(loop);
    loop->in_run = 0;
    free_zombies(loop);
    return loop->dispatched;
}

/* Thread-safe (ev_async_send). */
static int ev_loop_wakeup_(tasync_loop_t *loop) {
    if (loop == NULL) return -EINVAL;
    ev_async_send(loop->ev, &loop->wakeup);
    return 0;
}

static uint64_t ev_loop_now_(tasync_loop_t *loop) {
    (void)loop;
    return now_ns();
}

/* ============================================================ timers */

static int ev_timer_open_(tasync_loop_t *loop, tasync_timer_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    h = new_handle(loop, K_TIMER, data);
    if (h == NULL) return -ENOMEM;
    h->cb.timer = cb;
    *out = h;
    return 0;
}

static int ev_timer_start_(tasync_handle_t *h, uint64_t timeout_ns, uint64_t repeat_ns) {
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

static int ev_timer_stop_(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_TIMER) return -EINVAL;
    heap_remove(h->loop, h);
    h->due = 0;
    return 0;
}

/* ================================================================ io */

static int ev_io_open_(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL || fd < 0) return -EINVAL;
    if (fcntl(fd, F_GETFD) < 0) return -errno;
    h = new_handle(loop, K_IO, data);
    if (h == NULL) return -ENOMEM;
    h->cb.io = cb;
    h->fd = fd;
    ev_io_init(&h->io, on_io, fd, EV_READ);
    h->io.data = h;
    *out = h;
    return 0;
}

static int ev_io_stop_(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_IO) return -EINVAL;
    if (h->events == 0) return 0;
    /* Dropping the interest never reaches epoll_ctl (libev leaves the fd
     * registered until it reports an unwanted event), so no check. */
    ev_io_stop(h->loop->ev, &h->io);
    h->events = 0;
    return 0;
}

static int ev_io_start_(tasync_handle_t *h, unsigned events) {
    int mask = 0;
    if (h == NULL || h->kind != K_IO || h->closed) return -EINVAL;
    if (events & TASYNC_IO_PRIORITY) return -ENOTSUP; /* libev has no POLLPRI */
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE;
    if (events == h->events) return 0;
    if (events == 0) return ev_io_stop_(h);
    if (events & TASYNC_IO_READABLE) mask |= EV_READ;
    if (events & TASYNC_IO_WRITABLE) mask |= EV_WRITE;
    ev_io_stop(h->loop->ev, &h->io);
    ev_io_set(&h->io, h->fd, mask);
    ev_io_start(h->loop->ev, &h->io);
    h->events = events;
    mark_dirty(h);
    return 0;
}

/* =========================================================== signals */

static int ev_signal_open_(tasync_loop_t *loop, int signum, tasync_signal_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    int rc;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    /* SIGKILL/SIGSTOP cannot be caught; 32..SIGRTMIN-1 belong to libc; a
     * handler that returns cannot serve a fault (it would fault again). */
    if (signum <= 0 || signum >= NSIG || signum == SIGKILL || signum == SIGSTOP ||
        (signum >= 32 && signum < SIGRTMIN) || signum == SIGSEGV || signum == SIGBUS || signum == SIGFPE ||
        signum == SIGILL)
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

/* ============================================================= child */

static int ev_child_open_(tasync_loop_t *loop, int pid, tasync_child_cb cb, void *data, tasync_handle_t **out) {
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
#ifdef SYS_pidfd_open
    if (g_have_pidfd) h->fd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    if (h->fd >= 0) {
        /* Readable once the child has exited (at once if it already has);
         * pidfds are close-on-exec. */
        ev_io_init(&h->io, on_io, h->fd, EV_READ);
        h->io.data = h;
        ev_io_start(loop->ev, &h->io);
    } else {
        int rc = loop_watch_signal(loop, SIGCHLD);
        if (rc != 0) {
            free_handle(h);
            return rc;
        }
        h->sigchld = 1;
        loop->sigchld_users++;
        loop->sigchld_check = 1; /* it may have exited before the handler was in place */
        watch_link(h);
    }
    *out = h;
    return 0;
}

/* ============================================================= close */

static void ev_handle_close_(tasync_handle_t *h) {
    if (h == NULL || h->closed) return;
    close_handle(h);
    maybe_release(h);
}

/* ============================================================= table */

/* G11: libev re-creates its epoll set and its wakeup pipe at the next
 * ev_run and registers every watcher again (ev_loop_fork); until then it
 * only records changes. Our own kernel objects are pidfds, which the child
 * may keep (a pidfd of a process that is not its child reports -1). */
static int ev_loop_fork_(tasync_loop_t *loop) {
    if (loop == NULL) return -EINVAL;
    ev_loop_fork(loop->ev);
    return 0;
}

static char g_version[64];

static tasync_backend_t g_table = {
    sizeof(tasync_backend_t),
    TASYNC_ABI_VERSION,
    EV_BACKEND_NAME,
    g_version,
    0,
    0,
    ev_loop_create_,
    ev_loop_destroy_,
    ev_loop_run_,
    ev_loop_wakeup_,
    ev_loop_now_,
    ev_timer_open_,
    ev_timer_start_,
    ev_timer_stop_,
    ev_io_open_,
    ev_io_start_,
    ev_io_stop_,
    ev_handle_close_,
    ev_signal_open_,
    ev_child_open_,
    NULL,
    NULL,
    NULL,
    NULL,
    ev_loop_fork_,
};

/* Runs once when the shared object is loaded: fills in what depends on the
 * library and kernel found at run time. */
__attribute__((constructor)) static void ev_backend_init(void) {
    pthread_atfork(sig_atfork_prepare, sig_atfork_unlock, sig_atfork_unlock);
    int fd = -1;
    snprintf(g_version, sizeof(g_version), "libev %d.%d", ev_version_major(), ev_version_minor());
#if defined(SYS_pidfd_open) && !defined(TASYNC_EV_TEST_NO_PIDFD)
    fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
#endif
    if (fd >= 0) {
        g_have_pidfd = 1;
        g_table.capabilities |= TASYNC_CAP_PIDFD;
        close(fd);
    }
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
