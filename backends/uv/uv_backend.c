/*
 * tasync-backend-uv: the reactor contract (api/include/tasync/reactor.h) on
 * libuv. Exports only tasync_backend_entry.
 *
 * Notes on libuv that shape this file:
 *  - uv_run has no timeout: a bounded wait arms a private timer and runs
 *    UV_RUN_ONCE.
 *  - libuv's timers count whole milliseconds of a cached loop time, so two
 *    timers whose nanosecond deadlines differ by less than a millisecond
 *    can fire out of order, and a timer whose deadline has passed may not
 *    be due yet for libuv. G6 wants exact order and "fires at the first
 *    loop_run at or after the deadline", so tasync timers are not libuv
 *    timers: they live in a binary heap here, ordered by (deadline, start
 *    sequence) against loop_now, and the earliest deadline only bounds the
 *    wait (rounded up to libuv's millisecond). Due timers fire after the
 *    poll phase of each loop_run.
 *  - libuv aborts if epoll_ctl fails on an fd that was closed behind its back;
 *    io_start therefore checks the fd and re-registers it from scratch when
 *    the interest changes (G4).
 *  - libuv reports POLLERR as UV_EBADF and stops the poll. When the fd is in
 *    fact valid (a pipe whose reader left, a socket with a pending error)
 *    that is turned into a level-triggered TASYNC_IO_ERROR report instead,
 *    so that the caller tries its operation and sees the real error.
 *  - libuv reaps only children it spawned itself, so child watches use a
 *    pidfd polled by libuv (SIGCHLD plus waitpid where pidfd is missing).
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#define UV_BACKEND_NAME "uv"

enum handle_kind { K_TIMER = 1, K_IO, K_SIGNAL, K_CHILD };

struct tasync_handle;

struct tasync_loop {
    uv_loop_t uv;
    uv_async_t wakeup;
    uv_timer_t run_timer;
    int dispatched;
    int destroying;
    int in_run;
    int pending_work;
    /* Timer heap ordered by (deadline, seq); every timer handle, started or
     * not, is also on the timers list so that loop_destroy frees it. */
    struct tasync_handle **heap;
    size_t heap_len, heap_cap;
    uint64_t timer_seq;
    struct tasync_handle *timers;
    /* Timers closed during loop_run, freed when it ends (the due list of
     * run_timers may still point at them). */
    struct tasync_handle *zombies;
};

struct tasync_handle {
    int kind;
    int closed;
    struct tasync_loop *loop;
    union {
        tasync_timer_cb timer;
        tasync_io_cb io;
        tasync_signal_cb signal;
        tasync_child_cb child;
    } cb;
    void *data;
    /* timers */
    uint64_t deadline_ns;
    uint64_t repeat_ns;
    uint64_t seq;
    size_t heap_index;
    int due;
    struct tasync_handle *timer_prev, *timer_next; /* loop->timers */
    struct tasync_handle *next;                    /* due list or zombies */
    /* io */
    int fd;
    unsigned events;
    /* child */
    int pid;
    int pidfd;
    int reaped;
    union {
        uv_poll_t poll;
        uv_signal_t signal;
    } u;
};

#define NOT_IN_HEAP ((size_t)-1)

static void run_timers(struct tasync_loop *l);
static void timer_free(struct tasync_handle *h);
static void free_zombies(struct tasync_loop *l);

static uint64_t ms_from_ns_ceil(uint64_t ns) { return (ns + 999999u) / 1000000u; }

/* ------------------------------------------------------------------ loop */

static void noop_async(uv_async_t *a) { (void)a; }
/* The wait of loop_run has a deadline: when it passes, the wait is over.
 * uv_stop matters when the timer expires before libuv polls (the process
 * was descheduled between uv_timer_start and uv_run): uv_run runs expired
 * timers first and computes the poll timeout afterwards, from the timers
 * left; without the stop flag, that timeout would be "forever". */
static void wait_deadline(uv_timer_t *t) { uv_stop(t->loop); }

static void set_err(const tasync_loop_options_t *opts, const char *what, int uverr) {
    if (opts != NULL && opts->errbuf != NULL && opts->errbuf_size > 0)
        snprintf(opts->errbuf, opts->errbuf_size, "%s: %s", what, uv_strerror(uverr));
}

static int uv_loop_create_(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    struct tasync_loop *l = calloc(1, sizeof(*l));
    int rc;
    if (l == NULL) return -ENOMEM;
    rc = uv_loop_init(&l->uv);
    if (rc != 0) {
        set_err(opts, "uv_loop_init failed", rc);
        free(l);
        return rc;
    }
    l->uv.data = l;
    rc = uv_async_init(&l->uv, &l->wakeup, noop_async);
    if (rc == 0) rc = uv_timer_init(&l->uv, &l->run_timer);
    if (rc != 0) {
        set_err(opts, "libuv handle init failed", rc);
        uv_loop_close(&l->uv);
        free(l);
        return rc;
    }
    *out = l;
    return 0;
}

static void free_on_close(uv_handle_t *uvh) {
    struct tasync_handle *h = uvh->data;
    if (h->kind == K_CHILD && h->pidfd >= 0) close(h->pidfd);
    free(h);
}

static void close_any(uv_handle_t *uvh, void *arg) {
    struct tasync_loop *l = arg;
    if (uv_is_closing(uvh)) return;
    if (uvh == (uv_handle_t *)&l->wakeup || uvh == (uv_handle_t *)&l->run_timer) {
        uv_close(uvh, NULL);
        return;
    }
    {
        struct tasync_handle *h = uvh->data;
        h->closed = 1;
        uv_close(uvh, free_on_close);
    }
}

static void uv_loop_destroy_(tasync_loop_t *loop) {
    if (loop == NULL) return;
    loop->destroying = 1;
    uv_walk(&loop->uv, close_any, loop);
    /* Close callbacks run here; work still queued on libuv's pool must
     * finish before the loop can close (its done callbacks are swallowed). */
    while (uv_loop_close(&loop->uv) == UV_EBUSY) uv_run(&loop->uv, UV_RUN_ONCE);
    free_zombies(loop);
    while (loop->timers != NULL) timer_free(loop->timers);
    free(loop->heap);
    free(loop);
}

static void free_zombies(struct tasync_loop *l) {
    while (l->zombies != NULL) {
        struct tasync_handle *h = l->zombies;
        l->zombies = h->next;
        timer_free(h);
    }
}

/* One iteration: poll (bounded by the caller's timeout and the earliest
 * timer deadline), dispatch what libuv reports, then fire the due timers. */
static int uv_loop_run_(tasync_loop_t *loop, int64_t timeout_ns) {
    int64_t wait = timeout_ns;
    loop->dispatched = 0;
    loop->in_run++;
    if (wait != 0 && loop->heap_len > 0) {
        uint64_t now = uv_hrtime(), top = loop->heap[0]->deadline_ns;
        int64_t until = top > now ? (int64_t)(top - now) : 0;
        if (until < 0) until = INT64_MAX;
        if (wait < 0 || until < wait) wait = until;
    }
    if (wait == 0) {
        uv_run(&loop->uv, UV_RUN_NOWAIT);
    } else if (wait < 0) {
        uv_run(&loop->uv, UV_RUN_ONCE);
    } else {
        /* Rounded up to libuv's millisecond: the timers are checked against
         * the nanosecond clock afterwards, so a wait never ends early.
         * The deadline's callback stops the loop (see wait_deadline). */
        uint64_t ms = ms_from_ns_ceil((uint64_t)wait);
        uv_update_time(&loop->uv);
        uv_timer_start(&loop->run_timer, wait_deadline, ms, 0);
        uv_run(&loop->uv, UV_RUN_ONCE);
        uv_timer_stop(&loop->run_timer);
    }
    run_timers(loop);
    loop->in_run--;
    if (loop->in_run == 0) free_zombies(loop);
    return loop->dispatched;
}

static int uv_loop_wakeup_(tasync_loop_t *loop) { return uv_async_send(&loop->wakeup); }

static uint64_t uv_loop_now_(tasync_loop_t *loop) {
    (void)loop;
    return uv_hrtime();
}

static struct tasync_handle *new_handle(struct tasync_loop *l, int kind, void *data) {
    struct tasync_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) return NULL;
    h->kind = kind;
    h->loop = l;
    h->data = data;
    h->fd = -1;
    h->pidfd = -1;
    return h;
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

/* Fires the timers due now (G6): collected first, in deadline order with
 * ties in start order, then called. A timer started or re-armed by a
 * callback goes back to the heap and waits for the next loop_run, so a run
 * always ends (G7). */
static void run_timers(struct tasync_loop *l) {
    struct tasync_handle *due = NULL, **tail = &due;
    uint64_t now;
    if (l->heap_len == 0) return;
    now = uv_hrtime();
    while (l->heap_len > 0 && l->heap[0]->deadline_ns <= now) {
        struct tasync_handle *h = l->heap[0];
        heap_remove(l, h);
        h->due = 1;
        h->next = NULL;
        *tail = h;
        tail = &h->next;
    }
    while (due != NULL) {
        struct tasync_handle *h = due;
        due = h->next;
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

static void timer_free(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->timer_prev != NULL) h->timer_prev->timer_next = h->timer_next;
    else l->timers = h->timer_next;
    if (h->timer_next != NULL) h->timer_next->timer_prev = h->timer_prev;
    free(h);
}

static void timer_close(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    heap_remove(l, h);
    h->due = 0;
    if (l->in_run > 0) {
        h->next = l->zombies;
        l->zombies = h;
    } else {
        timer_free(h);
    }
}

static int uv_timer_open_(tasync_loop_t *loop, tasync_timer_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL) return -EINVAL;
    h = new_handle(loop, K_TIMER, data);
    if (h == NULL) return -ENOMEM;
    h->cb.timer = cb;
    h->heap_index = NOT_IN_HEAP;
    h->timer_next = loop->timers;
    if (loop->timers != NULL) loop->timers->timer_prev = h;
    loop->timers = h;
    *out = h;
    return 0;
}

static int uv_timer_start_(tasync_handle_t *h, uint64_t timeout_ns, uint64_t repeat_ns) {
    struct tasync_loop *l;
    uint64_t now;
    if (h == NULL || h->kind != K_TIMER || h->closed) return -EINVAL;
    l = h->loop;
    heap_remove(l, h);
    h->due = 0;
    now = uv_hrtime();
    h->deadline_ns = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
    h->repeat_ns = repeat_ns;
    h->seq = l->timer_seq++;
    return heap_push(l, h);
}

static int uv_timer_stop_(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_TIMER) return -EINVAL;
    heap_remove(h->loop, h);
    h->due = 0;
    return 0;
}

/* -------------------------------------------------------------------- io */

static int uv_events_of(unsigned events) {
    int uvev = UV_DISCONNECT;
    if (events & TASYNC_IO_READABLE) uvev |= UV_READABLE;
    if (events & TASYNC_IO_WRITABLE) uvev |= UV_WRITABLE;
    if (events & TASYNC_IO_PRIORITY) uvev |= UV_PRIORITIZED;
    return uvev;
}

static void on_poll(uv_poll_t *p, int status, int uvevents) {
    struct tasync_handle *h = p->data;
    unsigned ev = 0;
    if (h->closed) return;
    h->loop->dispatched++;
    if (status < 0) {
        /* libuv has stopped the handle: it says UV_EBADF for any POLLERR. */
        if (status == UV_EBADF && fcntl(h->fd, F_GETFD) >= 0) {
            /* The fd is fine; an error condition is pending on it (a pipe
             * whose reader left, a refused connection). Keep watching, so
             * the report is level-triggered like any other (G5), and let
             * the caller try what it waits for and meet the real error. */
            if (uv_poll_start(p, uv_events_of(h->events), on_poll) == 0) {
                h->cb.io(h, h->data, 0, TASYNC_IO_ERROR | (h->events & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE)));
                return;
            }
        }
        h->events = 0;
        h->cb.io(h, h->data, status, 0);
        return;
    }
    if (uvevents & UV_READABLE) ev |= TASYNC_IO_READABLE;
    if (uvevents & UV_WRITABLE) ev |= TASYNC_IO_WRITABLE;
    if (uvevents & UV_DISCONNECT) ev |= TASYNC_IO_HANGUP;
    if (uvevents & UV_PRIORITIZED) ev |= TASYNC_IO_PRIORITY;
    h->cb.io(h, h->data, 0, ev);
}

static int uv_io_open_(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    int rc;
    if (cb == NULL || out == NULL || fd < 0) return -EINVAL;
    h = new_handle(loop, K_IO, data);
    if (h == NULL) return -ENOMEM;
    h->cb.io = cb;
    rc = uv_poll_init(&loop->uv, &h->u.poll, fd);
    if (rc != 0) {
        free(h);
        return rc;
    }
    h->u.poll.data = h;
    h->fd = fd;
    *out = h;
    return 0;
}

static int uv_io_start_(tasync_handle_t *h, unsigned events) {
    int uvev = 0, rc;
    if (h == NULL || h->kind != K_IO || h->closed) return -EINVAL;
    if (events == 0) {
        h->events = 0;
        return uv_poll_stop(&h->u.poll);
    }
    if (events == h->events) return 0;
    /* libuv aborts when epoll_ctl meets a closed fd; refuse it here. */
    if (fcntl(h->fd, F_GETFD) < 0) return -errno;
    uvev = uv_events_of(events);
    /* Re-register from scratch: the fd number may belong to a new file. */
    if (h->events != 0) uv_poll_stop(&h->u.poll);
    rc = uv_poll_start(&h->u.poll, uvev, on_poll);
    if (rc == 0) h->events = events;
    return rc;
}

static int uv_io_stop_(tasync_handle_t *h) {
    if (h == NULL || h->kind != K_IO) return -EINVAL;
    h->events = 0;
    return uv_poll_stop(&h->u.poll);
}

/* --------------------------------------------------------------- signals */

static void on_signal(uv_signal_t *s, int signum) {
    struct tasync_handle *h = s->data;
    if (h->closed) return;
    h->loop->dispatched++;
    h->cb.signal(h, h->data, signum);
}

static int uv_signal_open_(tasync_loop_t *loop, int signum, tasync_signal_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    int rc;
    if (cb == NULL || out == NULL) return -EINVAL;
    h = new_handle(loop, K_SIGNAL, data);
    if (h == NULL) return -ENOMEM;
    h->cb.signal = cb;
    rc = uv_signal_init(&loop->uv, &h->u.signal);
    if (rc == 0) {
        h->u.signal.data = h;
        rc = uv_signal_start(&h->u.signal, on_signal, signum);
        if (rc != 0) {
            h->closed = 1;
            uv_close((uv_handle_t *)&h->u.signal, free_on_close);
            return rc;
        }
    } else {
        free(h);
        return rc;
    }
    *out = h;
    return 0;
}

/* ----------------------------------------------------------------- child */

static int try_reap(struct tasync_handle *h) {
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)h->pid, &si, WEXITED | WNOHANG) != 0) {
        if (errno != ECHILD) return -errno;
        /* Someone else reaped it (e.g. pcntl_waitpid): report it unknown. */
        h->reaped = 1;
        h->loop->dispatched++;
        h->cb.child(h, h->data, h->pid, -1, 0);
        return 1;
    }
    if (si.si_pid == 0) return 0; /* still running */
    h->reaped = 1;
    h->loop->dispatched++;
    if (si.si_code == CLD_EXITED)
        h->cb.child(h, h->data, h->pid, si.si_status, 0);
    else
        h->cb.child(h, h->data, h->pid, 0, si.si_status);
    return 1;
}

static void on_pidfd(uv_poll_t *p, int status, int events) {
    struct tasync_handle *h = p->data;
    (void)status;
    (void)events;
    if (h->closed || h->reaped) return;
    uv_poll_stop(p);
    if (try_reap(h) == 0) uv_poll_start(p, UV_READABLE, on_pidfd);
}

static void on_sigchld(uv_signal_t *s, int signum) {
    struct tasync_handle *h = s->data;
    (void)signum;
    if (h->closed || h->reaped) return;
    if (try_reap(h) != 0) uv_signal_stop(s);
}

static int uv_child_open_(tasync_loop_t *loop, int pid, tasync_child_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    siginfo_t si;
    int rc;
    if (cb == NULL || out == NULL || pid <= 0) return -EINVAL;
    /* Refuse what is not a child of ours, without reaping it. */
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) return -errno;
    h = new_handle(loop, K_CHILD, data);
    if (h == NULL) return -ENOMEM;
    h->cb.child = cb;
    h->pid = pid;
#ifdef SYS_pidfd_open
    h->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    if (h->pidfd >= 0) {
        rc = uv_poll_init(&loop->uv, &h->u.poll, h->pidfd);
        if (rc == 0) {
            h->u.poll.data = h;
            rc = uv_poll_start(&h->u.poll, UV_READABLE, on_pidfd);
        }
    } else {
        rc = uv_signal_init(&loop->uv, &h->u.signal);
        if (rc == 0) {
            h->u.signal.data = h;
            rc = uv_signal_start(&h->u.signal, on_sigchld, SIGCHLD);
        }
    }
    if (rc != 0) {
        if (h->pidfd >= 0) close(h->pidfd);
        free(h);
        return rc;
    }
    *out = h;
    return 0;
}

/* ----------------------------------------------------------------- close */

static void uv_handle_close_(tasync_handle_t *h) {
    uv_handle_t *uvh;
    if (h == NULL || h->closed) return;
    h->closed = 1;
    switch (h->kind) {
        case K_TIMER: timer_close(h); return;
        case K_IO: uvh = (uv_handle_t *)&h->u.poll; break;
        case K_SIGNAL: uvh = (uv_handle_t *)&h->u.signal; break;
        default: uvh = h->pidfd >= 0 ? (uv_handle_t *)&h->u.poll : (uv_handle_t *)&h->u.signal; break;
    }
    uv_close(uvh, free_on_close);
}

/* --------------------------------------------------------------- offload */

struct work_req {
    uv_work_t req;
    tasync_work_t *work;
    struct tasync_loop *loop;
};

static void work_run(uv_work_t *req) {
    struct work_req *w = req->data;
    w->work->run(w->work);
}

static void work_after(uv_work_t *req, int status) {
    struct work_req *w = req->data;
    tasync_work_t *work = w->work;
    struct tasync_loop *l = w->loop;
    l->pending_work--;
    work->internal[0] = NULL;
    free(w);
    if (l->destroying) return;
    l->dispatched++;
    work->done(work, status == UV_ECANCELED ? -ECANCELED : status);
}

static int uv_work_submit_(tasync_loop_t *loop, tasync_work_t *work) {
    struct work_req *w;
    int rc;
    if (work == NULL || work->run == NULL || work->done == NULL) return -EINVAL;
    w = calloc(1, sizeof(*w));
    if (w == NULL) return -ENOMEM;
    w->req.data = w;
    w->work = work;
    w->loop = loop;
    rc = uv_queue_work(&loop->uv, &w->req, work_run, work_after);
    if (rc != 0) {
        free(w);
        return rc;
    }
    work->internal[0] = w;
    loop->pending_work++;
    return 0;
}

static int uv_work_cancel_(tasync_loop_t *loop, tasync_work_t *work) {
    struct work_req *w = work != NULL ? work->internal[0] : NULL;
    (void)loop;
    if (w == NULL) return -EINVAL;
    return uv_cancel((uv_req_t *)&w->req) == 0 ? 0 : -EBUSY;
}

/* ------------------------------------------------------------------ fork */

/* G11: libuv gives the loop a new epoll set, wakeup and signal pipe and
 * registers every watcher again (uv_loop_fork). Work on libuv's thread pool
 * cannot be finished in the child: the pool's threads stayed in the parent
 * and libuv would keep counting the requests, so the fork is refused while
 * any is in flight. The timer heap lives in our memory and needs nothing. */
static int uv_loop_fork_(tasync_loop_t *loop) {
    if (loop == NULL) return -EINVAL;
    if (loop->pending_work > 0) return -EBUSY;
    return uv_loop_fork(&loop->uv);
}

/* ----------------------------------------------------------------- table */

static char g_version[64];

static tasync_backend_t g_table = {
    sizeof(tasync_backend_t),
    TASYNC_ABI_VERSION,
    UV_BACKEND_NAME,
    g_version,
    TASYNC_CAP_OFFLOAD | TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY,
    0,
    uv_loop_create_,
    uv_loop_destroy_,
    uv_loop_run_,
    uv_loop_wakeup_,
    uv_loop_now_,
    uv_timer_open_,
    uv_timer_start_,
    uv_timer_stop_,
    uv_io_open_,
    uv_io_start_,
    uv_io_stop_,
    uv_handle_close_,
    uv_signal_open_,
    uv_child_open_,
    NULL,
    NULL,
    uv_work_submit_,
    uv_work_cancel_,
    uv_loop_fork_,
};

/* Runs once when the shared object is loaded: fills in what depends on the
 * library and kernel found at run time. */
__attribute__((constructor)) static void uv_backend_init(void) {
    int fd = -1;
    snprintf(g_version, sizeof(g_version), "libuv %s", uv_version_string());
#ifdef SYS_pidfd_open
    fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
#endif
    if (fd >= 0) {
        g_table.capabilities |= TASYNC_CAP_PIDFD;
        close(fd);
    }
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
