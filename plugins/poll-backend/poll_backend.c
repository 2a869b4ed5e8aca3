/*
 * tasync-backend-poll: a complete reactor for tasync on poll(2), written in
 * plain C99 and POSIX against the installed tasync headers only (found
 * through pkg-config). It implements every required entry of the contract
 * in <tasync/reactor.h> (guarantees G1-G8); completion operations and
 * offloading are left to the core, which emulates them.
 *
 * How it works:
 *  - Each loop keeps a pollfd array: slot 0 is the loop's wakeup pipe, slot
 *    1 the process-wide signal pipe (fd -1, ignored by poll, while the loop
 *    watches no signal), then one slot per io handle with an interest and
 *    per child handle watched through a pidfd. poll(2) is level-triggered
 *    (G5); an fd closed under its handle comes back as POLLNVAL and is
 *    reported as -EBADF (G4).
 *  - Before any callback runs, the ready slots are copied into a list of
 *    (handle, revents) so callbacks may open, change and close handles
 *    freely (G2); a closed handle is skipped and stays allocated until the
 *    loop_run ends (G3).
 *  - Timers are a binary heap ordered by (deadline, start sequence); the
 *    earliest deadline bounds the poll timeout, rounded up to whole
 *    milliseconds, and due timers fire after poll returns (G6).
 *  - Signals: a process-wide handler, installed with sigaction while any
 *    loop watches the signal and chained to the handler it replaced, writes
 *    the signal number as one byte into a process-wide pipe (write(2) is
 *    async-signal-safe, and the pipe is never closed, so the handler never
 *    writes into a reused descriptor). Every loop that watches a signal
 *    polls that pipe; whichever reads a byte first counts it, under a
 *    mutex, for every loop that watches the signal and wakes those loops.
 *    So each watching loop sees each delivery, whichever thread the kernel
 *    ran the handler on.
 *  - Child exits: a pidfd where the system has pidfd_open (Linux >= 5.3),
 *    else SIGCHLD through the signal pipe followed by waitid on each child
 *    the loop watches.
 *  - Wakeup: one byte into the loop's pipe (thread-safe).
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* syscall() for pidfd_open, NSIG */
#endif
#define _POSIX_C_SOURCE 200809L

#include <tasync/backend.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#ifndef NSIG
#define NSIG 65
#endif

#define POLL_BACKEND_NAME "poll"
#define POLL_BACKEND_VERSION "poll 1.0 (poll(2))"

#define NO_SLOT ((size_t)-1)
#define FIRST_HANDLE_SLOT 2

enum handle_kind { K_TIMER = 1, K_IO, K_SIGNAL, K_CHILD };

struct tasync_handle {
    int kind;
    int closed;     /* handle_close was called: no more callbacks */
    int in_zombies;
    int due;        /* timers: collected to fire in this loop_run */
    int reaped;     /* children: the callback was delivered */
    int sigchld;    /* children: watched through SIGCHLD */
    int in_watch;
    struct tasync_loop *loop;
    tasync_timer_cb timer_cb;
    tasync_io_cb io_cb;
    tasync_signal_cb signal_cb;
    tasync_child_cb child_cb;
    void *data;
    struct tasync_handle *all_prev, *all_next;
    struct tasync_handle *watch_prev, *watch_next; /* signal handles, SIGCHLD children */
    struct tasync_handle *zombie_next;
    struct tasync_handle *due_next;
    /* timers */
    uint64_t deadline_ns;
    uint64_t repeat_ns;
    uint64_t seq;
    size_t heap_index;
    /* io (fd) and child (pidfd) */
    int fd;
    unsigned events; /* io: wanted TASYNC_IO_* bits; 0 = stopped */
    size_t slot;     /* index in loop->pfd, or NO_SLOT */
    /* signal */
    int signum;
    /* child */
    int pid;
};

struct ready {
    struct tasync_handle *h;
    short revents;
};

struct tasync_loop {
    int wake[2];
    struct pollfd *pfd;
    struct tasync_handle **owner; /* owner[i] of pfd[i], i >= FIRST_HANDLE_SLOT */
    size_t npfd, pfd_cap;
    struct ready *ready;
    size_t ready_cap;
    int in_run;
    int dispatched;
    struct tasync_handle *all;
    struct tasync_handle *zombies;
    struct tasync_handle *watch_head, *watch_tail;
    struct tasync_handle **heap;
    size_t heap_len, heap_cap;
    uint64_t timer_seq;
    /* Signals. Loop thread only: */
    int sig_count[NSIG];
    int sig_watched;
    int sigchld_users;
    int sigchld_check;
    /* Under g_sig_mu: */
    int registered;
    unsigned char sig_wanted[NSIG];
    unsigned sig_pending[NSIG];
    struct tasync_loop *reg_prev, *reg_next;
};

static pthread_once_t g_init_once = PTHREAD_ONCE_INIT;
static int g_have_pidfd; /* set once by backend_init */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int set_flags(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -errno;
    fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0) return -errno;
    return 0;
}

/* A non-blocking, close-on-exec pipe. */
static int make_pipe(int fds[2]) {
    int rc;
    if (pipe(fds) != 0) return -errno;
    rc = set_flags(fds[0]);
    if (rc == 0) rc = set_flags(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        close(fds[1]);
    }
    return rc;
}

/* ================================================== process-wide signals */

static pthread_mutex_t g_sig_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_sig_pipe[2] = {-1, -1};
static volatile sig_atomic_t g_sig_pipe_w = -1; /* what the handler writes to */
static int g_atfork_done;
static struct tasync_loop *g_loops;     /* loops watching some signal */
static int g_sig_users[NSIG];           /* loops watching each signal */
static int g_sig_installed[NSIG];       /* our handler is installed */
static struct sigaction g_sig_old[NSIG]; /* what it replaced */

static void on_process_signal(int signum, siginfo_t *info, void *ctx) {
    int saved = errno;
    unsigned char b = (unsigned char)signum;
    int fd = g_sig_pipe_w;
    const struct sigaction *old = &g_sig_old[signum];
    /* A full pipe drops the byte: deliveries coalesce, as signals do. */
    if (fd >= 0 && write(fd, &b, 1) < 0) {
    }
    /* Chain to the handler we replaced (e.g. one PHP's pcntl installed).
     * The default action is not taken: watching a signal means handling it. */
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        if (!(old->sa_flags & SA_SIGINFO)) old->sa_handler(signum);
        else if (old->sa_sigaction != on_process_signal) old->sa_sigaction(signum, info, ctx);
    }
    errno = saved;
}

/* Fork: the child gets a pipe of its own (so parent and child do not read
 * each other's signals) and a usable mutex. */
static void atfork_prepare(void) { pthread_mutex_lock(&g_sig_mu); }
static void atfork_parent(void) { pthread_mutex_unlock(&g_sig_mu); }
static void atfork_child(void) {
    if (g_sig_pipe[0] >= 0) {
        int fresh[2];
        close(g_sig_pipe[0]);
        close(g_sig_pipe[1]);
        g_sig_pipe[0] = g_sig_pipe[1] = -1;
        g_sig_pipe_w = -1;
        if (make_pipe(fresh) == 0) {
            g_sig_pipe[0] = fresh[0];
            g_sig_pipe[1] = fresh[1];
            g_sig_pipe_w = fresh[1];
        }
    }
    pthread_mutex_unlock(&g_sig_mu);
}

/* Makes the loop see deliveries of signum. Loop thread. */
static int registry_watch(struct tasync_loop *l, int signum) {
    int rc = 0;
    pthread_mutex_lock(&g_sig_mu);
    if (g_sig_pipe[0] < 0) {
        rc = make_pipe(g_sig_pipe);
        if (rc != 0) {
            g_sig_pipe[0] = g_sig_pipe[1] = -1;
            goto out;
        }
        g_sig_pipe_w = g_sig_pipe[1];
    }
    if (!g_atfork_done) {
        rc = -pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
        if (rc != 0) goto out;
        g_atfork_done = 1;
    }
    if (!g_sig_installed[signum]) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_process_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        /* g_sig_old is complete before our handler can run. */
        if (sigaction(signum, NULL, &g_sig_old[signum]) != 0 || sigaction(signum, &sa, NULL) != 0) {
            rc = -errno;
            goto out;
        }
        g_sig_installed[signum] = 1;
    }
    g_sig_users[signum]++;
    l->sig_wanted[signum] = 1;
    l->sig_pending[signum] = 0;
    if (!l->registered) {
        l->registered = 1;
        l->reg_prev = NULL;
        l->reg_next = g_loops;
        if (g_loops != NULL) g_loops->reg_prev = l;
        g_loops = l;
    }
    l->sig_watched++;
    l->pfd[1].fd = g_sig_pipe[0];
out:
    pthread_mutex_unlock(&g_sig_mu);
    return rc;
}

static void registry_unwatch(struct tasync_loop *l, int signum) {
    pthread_mutex_lock(&g_sig_mu);
    l->sig_wanted[signum] = 0;
    l->sig_pending[signum] = 0;
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
        if (l->reg_prev != NULL) l->reg_prev->reg_next = l->reg_next;
        else g_loops = l->reg_next;
        if (l->reg_next != NULL) l->reg_next->reg_prev = l->reg_prev;
        l->registered = 0;
        l->pfd[1].fd = -1;
    }
    pthread_mutex_unlock(&g_sig_mu);
}

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

/* Reads the signal pipe and counts each delivery for every loop watching
 * that signal, waking the others. Then takes this loop's counts. */
static void collect_signals(struct tasync_loop *l, int pipe_ready, unsigned counts[NSIG]) {
    pthread_mutex_lock(&g_sig_mu);
    if (pipe_ready && g_sig_pipe[0] >= 0) {
        unsigned char buf[256];
        ssize_t n;
        while ((n = read(g_sig_pipe[0], buf, sizeof(buf))) > 0) {
            ssize_t i;
            for (i = 0; i < n; i++) {
                struct tasync_loop *o;
                int s = buf[i];
                if (s <= 0 || s >= NSIG) continue;
                for (o = g_loops; o != NULL; o = o->reg_next) {
                    if (!o->sig_wanted[s]) continue;
                    o->sig_pending[s]++;
                    if (o != l && write(o->wake[1], "s", 1) < 0) {
                        /* full: a wakeup is pending anyway */
                    }
                }
            }
        }
    }
    /* A forked child got a new pipe (atfork_child). */
    l->pfd[1].fd = g_sig_pipe[0];
    memcpy(counts, l->sig_pending, sizeof(l->sig_pending));
    memset(l->sig_pending, 0, sizeof(l->sig_pending));
    pthread_mutex_unlock(&g_sig_mu);
}

/* ========================================================= handle lists */

static struct tasync_handle *new_handle(struct tasync_loop *l, int kind, void *data) {
    struct tasync_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) return NULL;
    h->kind = kind;
    h->loop = l;
    h->data = data;
    h->fd = -1;
    h->slot = NO_SLOT;
    h->heap_index = NO_SLOT;
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

static void free_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    watch_unlink(h);
    if (h->all_prev != NULL) h->all_prev->all_next = h->all_next;
    else l->all = h->all_next;
    if (h->all_next != NULL) h->all_next->all_prev = h->all_prev;
    free(h);
}

/* Frees a closed handle, or keeps it until the loop_run ends: a dispatcher
 * may still hold it in its ready list or be walking a list it is on. */
static void release(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->in_zombies) return;
    if (l->in_run) {
        h->in_zombies = 1;
        h->zombie_next = l->zombies;
        l->zombies = h;
        return;
    }
    free_handle(h);
}

/* ============================================================ pollfds */

static int pfd_add(struct tasync_loop *l, struct tasync_handle *h, int fd, short events) {
    if (l->npfd == l->pfd_cap) {
        size_t cap = l->pfd_cap * 2;
        struct pollfd *p = realloc(l->pfd, cap * sizeof(*p));
        struct tasync_handle **o;
        if (p == NULL) return -ENOMEM;
        l->pfd = p;
        o = realloc(l->owner, cap * sizeof(*o));
        if (o == NULL) return -ENOMEM;
        l->owner = o;
        l->pfd_cap = cap;
    }
    l->pfd[l->npfd].fd = fd;
    l->pfd[l->npfd].events = events;
    l->pfd[l->npfd].revents = 0;
    l->owner[l->npfd] = h;
    h->slot = l->npfd++;
    return 0;
}

static void pfd_remove(struct tasync_loop *l, struct tasync_handle *h) {
    size_t i = h->slot, last;
    if (i == NO_SLOT) return;
    h->slot = NO_SLOT;
    last = --l->npfd;
    if (i != last) {
        l->pfd[i] = l->pfd[last];
        l->owner[i] = l->owner[last];
        l->owner[i]->slot = i;
    }
}

/* Linux reports a peer's shutdown(SHUT_WR) as POLLRDHUP, which glibc's
 * poll.h declares only under _GNU_SOURCE; the value is part of the Linux
 * ABI. Elsewhere there is no such report: 0 asks for nothing. */
#if defined(__linux__) && !defined(POLLRDHUP)
#define POLLRDHUP 0x2000
#elif !defined(POLLRDHUP)
#define POLLRDHUP 0
#endif

static short poll_events_of(unsigned events) {
    short e = 0;
    if (events & TASYNC_IO_READABLE) e |= POLLIN | POLLRDHUP;
    if (events & TASYNC_IO_WRITABLE) e |= POLLOUT;
    if (events & TASYNC_IO_PRIORITY) e |= POLLPRI;
    return e;
}

/* ============================================================= timers */

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
    if (i == NO_SLOT) return;
    h->heap_index = NO_SLOT;
    last = l->heap[--l->heap_len];
    if (i == l->heap_len) return;
    heap_place(l, i, last);
    if (i > 0 && timer_before(last, l->heap[(i - 1) / 2])) heap_up(l, i);
    else heap_down(l, i);
}

/* Fires the timers due now, in deadline order with ties in start order.
 * A timer started or re-armed by a callback waits for the next loop_run. */
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
        if (!h->due) continue; /* stopped, restarted or closed meanwhile */
        h->due = 0;
        if (h->repeat_ns != 0) {
            /* From the scheduled time; missed periods are skipped. */
            uint64_t next = h->deadline_ns + h->repeat_ns;
            if (next <= now) next += ((now - next) / h->repeat_ns + 1) * h->repeat_ns;
            h->deadline_ns = next;
            h->seq = l->timer_seq++;
            if (heap_push(l, h) != 0) h->repeat_ns = 0;
        }
        l->dispatched++;
        h->timer_cb(h, h->data);
    }
}

/* =========================================================== children */

static void child_stop(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->fd >= 0) {
        pfd_remove(l, h);
        close(h->fd);
        h->fd = -1;
    }
    if (h->sigchld) {
        h->sigchld = 0;
        l->sigchld_users--;
        loop_unwatch_signal(l, SIGCHLD);
    }
}

/* Reaps the child if it has exited and calls back (the last thing done with
 * h: the callback may close it). Returns 1 when reaped. */
static int try_reap(struct tasync_handle *h) {
    siginfo_t si;
    int exit_status = 0, term_signal = 0;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)h->pid, &si, WEXITED | WNOHANG) != 0) {
        if (errno == EINTR) return 0;
        exit_status = -1; /* ECHILD: someone else reaped it */
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
    h->child_cb(h, h->data, h->pid, exit_status, term_signal);
    return 1;
}

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

/* =========================================================== dispatch */

static void dispatch_io(struct tasync_handle *h, short re) {
    struct tasync_loop *l = h->loop;
    unsigned ev = 0;
    if (re & POLLNVAL) {
        /* The fd was closed under the handle (G4). */
        pfd_remove(l, h);
        h->events = 0;
        l->dispatched++;
        h->io_cb(h, h->data, -EBADF, 0);
        return;
    }
    if (re & POLLIN) ev |= TASYNC_IO_READABLE;
    if (re & POLLOUT) ev |= TASYNC_IO_WRITABLE;
    if (re & POLLPRI) ev |= TASYNC_IO_PRIORITY;
    if (re & (POLLHUP | POLLRDHUP)) ev |= TASYNC_IO_HANGUP;
    if (re & POLLERR) ev |= TASYNC_IO_ERROR;
    /* On hangup or error the caller tries what it waits for and sees the
     * outcome (end of file, EPIPE, the pending error). */
    if (re & (POLLHUP | POLLERR)) ev |= h->events;
    ev &= h->events | TASYNC_IO_HANGUP | TASYNC_IO_ERROR;
    if (ev == 0) return;
    l->dispatched++;
    h->io_cb(h, h->data, 0, ev);
}

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
                h->signal_cb(h, h->data, signum);
            }
            if (at_end) break;
            h = next;
        }
    }
}

/* ================================================================ loop */

static void set_err(const tasync_loop_options_t *opts, const char *what, int err) {
    if (opts != NULL && opts->size >= offsetof(tasync_loop_options_t, errbuf_size) + sizeof(size_t) &&
        opts->errbuf != NULL && opts->errbuf_size > 0)
        snprintf(opts->errbuf, opts->errbuf_size, "%s: %s", what, strerror(err));
}

static int poll_loop_create(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    struct tasync_loop *l;
    int rc;
    if (out == NULL) return -EINVAL;
    l = calloc(1, sizeof(*l));
    if (l == NULL) return -ENOMEM;
    l->pfd_cap = 16;
    l->pfd = calloc(l->pfd_cap, sizeof(*l->pfd));
    l->owner = calloc(l->pfd_cap, sizeof(*l->owner));
    if (l->pfd == NULL || l->owner == NULL) {
        free(l->pfd);
        free(l->owner);
        free(l);
        return -ENOMEM;
    }
    rc = make_pipe(l->wake);
    if (rc != 0) {
        set_err(opts, "cannot create the wakeup pipe", -rc);
        free(l->pfd);
        free(l->owner);
        free(l);
        return rc;
    }
    l->pfd[0].fd = l->wake[0];
    l->pfd[0].events = POLLIN;
    l->pfd[1].fd = -1;
    l->pfd[1].events = POLLIN;
    l->npfd = FIRST_HANDLE_SLOT;
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
            pfd_remove(l, h);
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

static void poll_loop_destroy(tasync_loop_t *loop) {
    struct tasync_handle *h;
    if (loop == NULL) return;
    for (h = loop->all; h != NULL; h = h->all_next) close_handle(h);
    /* The loop left the signal registry with its last signal handle. */
    while (loop->all != NULL) free_handle(loop->all);
    close(loop->wake[0]);
    close(loop->wake[1]);
    free(loop->pfd);
    free(loop->owner);
    free(loop->ready);
    free(loop->heap);
    free(loop);
}

/* Copies the ready slots out of the pollfd array before any callback can
 * change it. Returns the number of entries, or -1 without memory. */
static long collect_ready(struct tasync_loop *l) {
    size_t i, n = 0;
    if (l->ready_cap < l->npfd) {
        struct ready *r = realloc(l->ready, l->npfd * sizeof(*r));
        if (r == NULL) return -1;
        l->ready = r;
        l->ready_cap = l->npfd;
    }
    for (i = FIRST_HANDLE_SLOT; i < l->npfd; i++) {
        if (l->pfd[i].revents == 0) continue;
        l->ready[n].h = l->owner[i];
        l->ready[n].revents = l->pfd[i].revents;
        n++;
    }
    return (long)n;
}

static int poll_loop_run(tasync_loop_t *loop, int64_t timeout_ns) {
    int64_t wait = timeout_ns;
    int ms, rc, err = 0, signals_ready;
    long nready, i;
    if (loop == NULL) return -EINVAL;
    if (loop->in_run) return -EBUSY; /* not re-entrant */
    loop->in_run = 1;
    loop->dispatched = 0;
    if (loop->sigchld_check) reap_sigchld_children(loop);
    if (loop->dispatched > 0) wait = 0;
    if (wait != 0 && loop->heap_len > 0) {
        uint64_t now = now_ns(), top = loop->heap[0]->deadline_ns;
        /* A far deadline (a timeout near UINT64_MAX) stays a long wait, not
         * a negative one, which would mean "no limit". */
        uint64_t left = top > now ? top - now : 0;
        int64_t until = left > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)left;
        if (wait < 0 || until < wait) wait = until;
    }
    /* Whole milliseconds, rounded up so that a timer is not woken early
     * only to wait again. */
    if (wait < 0) ms = -1;
    else if (wait / 1000000 >= INT_MAX) ms = INT_MAX;
    else ms = (int)((wait + 999999) / 1000000);
    rc = poll(loop->pfd, (nfds_t)loop->npfd, ms);
    if (rc < 0) {
        if (errno != EINTR) err = -errno;
        rc = 0;
    }
    if (rc > 0 && loop->pfd[0].revents) {
        char buf[64];
        while (read(loop->wake[0], buf, sizeof(buf)) > 0) {
        }
    }
    signals_ready = rc > 0 && loop->pfd[1].fd >= 0 && loop->pfd[1].revents != 0;
    nready = rc > 0 ? collect_ready(loop) : 0;
    if (nready < 0) {
        err = -ENOMEM;
        nready = 0;
    }
    for (i = 0; i < nready; i++) {
        struct tasync_handle *h = loop->ready[i].h;
        if (h->closed) continue; /* G3 */
        if (h->kind == K_CHILD) {
            if (!h->reaped) try_reap(h);
        } else if (h->events != 0) {
            dispatch_io(h, loop->ready[i].revents);
        }
    }
    if (loop->sig_watched > 0) {
        unsigned counts[NSIG];
        int s;
        collect_signals(loop, signals_ready, counts);
        for (s = 1; s < NSIG; s++) {
            if (counts[s] == 0 || loop->sig_count[s] == 0) continue;
            if (s == SIGCHLD && loop->sigchld_users > 0) loop->sigchld_check = 1;
            dispatch_signal(loop, s, counts[s]);
        }
        if (loop->sigchld_check) reap_sigchld_children(loop);
    }
    run_timers(loop);
    loop->in_run = 0;
    while (loop->zombies != NULL) {
        struct tasync_handle *h = loop->zombies;
        loop->zombies = h->zombie_next;
        free_handle(h);
    }
    return err < 0 ? err : loop->dispatched;
}

/* G11 (ABI 1.1): poll(2) keeps no state in the kernel; only the loop's
 * wakeup pipe is shared with the parent's copy of the loop, so the child
 * gets a pipe of its own (the signal pipe is replaced by atfork_child). */
static int poll_loop_fork(tasync_loop_t *loop) {
    int fresh[2];
    int rc;
    if (loop == NULL) return -EINVAL;
    rc = make_pipe(fresh);
    if (rc != 0) return rc;
    close(loop->wake[0]);
    close(loop->wake[1]);
    loop->wake[0] = fresh[0];
    loop->wake[1] = fresh[1];
    loop->pfd[0].fd = fresh[0];
    return 0;
}

/* Thread-safe: one byte into the loop's pipe; a full pipe means a wakeup
 * is already pending. */
static int poll_loop_wakeup(tasync_loop_t *loop) {
    if (loop == NULL) return -EINVAL;
    if (write(loop->wake[1], "w", 1) < 0 && errno != EAGAIN) return -errno;
    return 0;
}

static uint64_t poll_loop_now(tasync_loop_t *loop) {
    (void)loop;
    return now_ns();
}

/* ============================================================== timers */

static int poll_timer_open(tasync_loop_t *loop, tasync_timer_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    h = new_handle(loop, K_TIMER, data);
    if (h == NULL) return -ENOMEM;
    h->timer_cb = cb;
    *out = h;
    return 0;
}

static int poll_timer_start(tasync_handle_t *h, uint64_t timeout_ns, uint64_t repeat_ns) {
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

static int poll_timer_stop(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_TIMER) return -EINVAL;
    heap_remove(h->loop, h);
    h->due = 0;
    return 0;
}

/* ================================================================== io */

static int poll_io_open(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL || fd < 0) return -EINVAL;
    if (fcntl(fd, F_GETFD) < 0) return -errno;
    h = new_handle(loop, K_IO, data);
    if (h == NULL) return -ENOMEM;
    h->io_cb = cb;
    h->fd = fd;
    *out = h;
    return 0;
}

static int poll_io_stop(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_IO) return -EINVAL;
    pfd_remove(h->loop, h);
    h->events = 0;
    return 0;
}

static int poll_io_start(tasync_handle_t *h, unsigned events) {
    if (h == NULL || h->kind != K_IO || h->closed) return -EINVAL;
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE | TASYNC_IO_PRIORITY;
    if (events == 0) return poll_io_stop(h);
    if (h->slot == NO_SLOT) {
        int rc = pfd_add(h->loop, h, h->fd, poll_events_of(events));
        if (rc != 0) return rc;
    } else {
        h->loop->pfd[h->slot].events = poll_events_of(events);
    }
    h->events = events;
    return 0;
}

/* ============================================================= signals */

static int poll_signal_open(tasync_loop_t *loop, int signum, tasync_signal_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    int rc;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    /* SIGKILL/SIGSTOP cannot be caught; a handler that returns cannot
     * serve a fault (it would fault again); on Linux 32..SIGRTMIN-1 belong
     * to the C library. */
    if (signum <= 0 || signum >= NSIG || signum == SIGKILL || signum == SIGSTOP || signum == SIGSEGV ||
        signum == SIGBUS || signum == SIGFPE || signum == SIGILL)
        return -EINVAL;
#if defined(__linux__) && defined(SIGRTMIN)
    if (signum >= 32 && signum < SIGRTMIN) return -EINVAL;
#endif
    h = new_handle(loop, K_SIGNAL, data);
    if (h == NULL) return -ENOMEM;
    h->signal_cb = cb;
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

/* =============================================================== child */

static int open_pidfd(int pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    if (g_have_pidfd) return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
#endif
    return -1;
}

static int poll_child_open(tasync_loop_t *loop, int pid, tasync_child_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    siginfo_t si;
    if (loop == NULL || cb == NULL || out == NULL || pid <= 0) return -EINVAL;
    /* Refuse what is not a child of ours, without reaping it. */
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) return -errno;
    h = new_handle(loop, K_CHILD, data);
    if (h == NULL) return -ENOMEM;
    h->child_cb = cb;
    h->pid = pid;
    h->fd = open_pidfd(pid);
    if (h->fd >= 0) {
        /* Readable once the child has exited (at once if it already has). */
        int rc = pfd_add(loop, h, h->fd, POLLIN);
        if (rc != 0) {
            close(h->fd);
            free_handle(h);
            return rc;
        }
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

/* =============================================================== close */

static void poll_handle_close(tasync_handle_t *h) {
    if (h == NULL || h->closed) return;
    close_handle(h);
    release(h);
}

/* =============================================================== table */

static tasync_backend_t g_table = {
    sizeof(tasync_backend_t),
    TASYNC_ABI_VERSION,
    POLL_BACKEND_NAME,
    POLL_BACKEND_VERSION,
    /* capabilities: readiness as poll(2) reports it; no completion ops, no
     * offload (the core has both) */
    TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY,
    0,
    poll_loop_create,
    poll_loop_destroy,
    poll_loop_run,
    poll_loop_wakeup,
    poll_loop_now,
    poll_timer_open,
    poll_timer_start,
    poll_timer_stop,
    poll_io_open,
    poll_io_start,
    poll_io_stop,
    poll_handle_close,
    poll_signal_open,
    poll_child_open,
    NULL,
    NULL,
    NULL,
    NULL,
    poll_loop_fork,
};

/* Fills in what depends on the system found at run time, once. */
static void backend_init(void) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    int fd = (int)syscall(SYS_pidfd_open, (int)getpid(), 0);
    if (fd >= 0) {
        g_have_pidfd = 1;
        g_table.capabilities |= TASYNC_CAP_PIDFD;
        close(fd);
    }
#endif
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    pthread_once(&g_init_once, backend_init);
    return &g_table;
}
