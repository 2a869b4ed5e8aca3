/*
 * tasync-backend-ev: the reactor contract (api/include/tasync/reactor.h) on
 * libev (>= 4.0). Exports only tasync_backend_entry.
 *
 * Every loop is its own ev_loop_new() loop, so runtimes on different threads
 * never share libev state (G1). The default loop is never touched.
 *
 * Notes on libev that shape this file:
 *  - Readiness: one ev_io per io handle. libev's epoll backend is
 *    level-triggered, which is what G5 asks for. libev folds EPOLLHUP and
 *    EPOLLERR into readable/writable readiness, so TASYNC_IO_HANGUP and
 *    TASYNC_IO_ERROR are never reported (a hangup or a pending error shows
 *    as readiness for the interests asked, and the caller's read/write then
 *    returns 0 or the error).
 *  - Priority data: libev has no POLLPRI interest. A loop that is asked for
 *    TASYNC_IO_PRIORITY opens an epoll set of its own (level-triggered,
 *    EPOLLPRI) and watches that set's fd with one ev_io; when it is
 *    readable, epoll_wait(0) says which handles have urgent data. epoll
 *    drops a registration only when the last descriptor of the file is
 *    closed, so a registration whose EPOLL_CTL_DEL fails (the caller closed
 *    the fd first, G4) might outlive its handle: the set is then rebuilt
 *    from the live handles, and the stale entry goes with the old set. A
 *    fork (G11) rebuilds it too.
 *  - libev aborts (an assertion in its epoll backend) when epoll_ctl meets a
 *    closed fd. G4 lets the caller close an fd while its handle is open, so
 *    every io handle whose registration changed since the last loop_run is
 *    checked with fcntl before ev_run hands the change to epoll; a closed fd
 *    gets a -EBADF callback instead. (libev registers an unchanged fd again
 *    only after it saw events for an fd it no longer knows, which needs a
 *    second descriptor of the same file kept open elsewhere; a caller that
 *    closes handles before their fds, as the core does, never meets it.)
 *  - The wait of one loop_run is bounded by one ev_timer, armed after
 *    ev_now_update so that libev's cached time does not end it early.
 *  - Wakeup: ev_async, whose send is thread-safe.
 *  - G3: ev_io_stop also drops an event already pending in the current
 *    ev_run, and a closed handle stays allocated until its loop_run ends.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define EV_BACKEND_NAME "ev"

struct tasync_loop {
    struct ev_loop *ev;
    ev_async wakeup;     /* loop_wakeup */
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
    /* The epoll set of priority interests, -1 until one is asked for, and
     * the ev_io that watches it. */
    int prio_fd;
    ev_io prio_io;
};

/* An io handle. */
struct tasync_handle {
    unsigned char closed; /* handle_close was called: no more callbacks */
    unsigned char in_dirty;
    unsigned char in_zombies;
    struct tasync_loop *loop;
    tasync_io_cb cb;
    void *data;
    struct tasync_handle *all_prev, *all_next;
    struct tasync_handle *dirty_next;
    struct tasync_handle *zombie_next;
    int fd;
    unsigned events;     /* wanted TASYNC_IO_READABLE|WRITABLE|PRIORITY; 0 = stopped */
    unsigned char in_prio; /* fd is registered in loop->prio_fd */
    ev_io io;
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ====================================================== handle lists */

static void mark_dirty(struct tasync_handle *h) {
    if (h->in_dirty) return;
    h->in_dirty = 1;
    h->dirty_next = h->loop->dirty;
    h->loop->dirty = h;
}

static void free_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->all_prev != NULL) h->all_prev->all_next = h->all_next;
    else l->all = h->all_next;
    if (h->all_next != NULL) h->all_next->all_prev = h->all_prev;
    free(h);
}

/* Frees a closed handle once nothing refers to it. Inside loop_run the
 * memory is kept until the run ends: libev may be about to return into the
 * dispatch of another event of the same handle, or of the dirty list. */
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

/* ========================================================= priority */

static void on_prio(struct ev_loop *ev, ev_io *w, int revents);

static int prio_add(struct tasync_loop *l, struct tasync_handle *h) {
    struct epoll_event e;
    memset(&e, 0, sizeof(e));
    e.events = EPOLLPRI;
    e.data.ptr = h;
    if (epoll_ctl(l->prio_fd, EPOLL_CTL_ADD, h->fd, &e) != 0) return -errno;
    h->in_prio = 1;
    return 0;
}

/* Opens the epoll set of priority interests and its watcher. */
static int prio_open(struct tasync_loop *l) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    if (fd < 0) return -errno;
    l->prio_fd = fd;
    ev_io_init(&l->prio_io, on_prio, fd, EV_READ);
    l->prio_io.data = l;
    ev_io_start(l->ev, &l->prio_io);
    return 0;
}

/* Replaces the epoll set by a new one holding every live handle that wants
 * priority data, except skip (being taken out). The watcher is stopped before the old set is closed, as
 * libev asks of an fd that goes away. A handle whose fd can no longer be
 * registered is left for check_dirty, which reports -EBADF. */
static int prio_rebuild(struct tasync_loop *l, struct tasync_handle *skip) {
    struct tasync_handle *h;
    int rc;
    ev_io_stop(l->ev, &l->prio_io);
    close(l->prio_fd);
    l->prio_fd = -1;
    for (h = l->all; h != NULL; h = h->all_next) h->in_prio = 0;
    rc = prio_open(l);
    if (rc != 0) return rc;
    for (h = l->all; h != NULL; h = h->all_next) {
        if (h == skip || h->closed || !(h->events & TASYNC_IO_PRIORITY)) continue;
        if (prio_add(l, h) != 0) mark_dirty(h);
    }
    return 0;
}

/* Takes h out of the priority set. Returns 0 or a negative error (the set
 * could not be rebuilt). */
static int prio_remove(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    struct epoll_event e;
    if (!h->in_prio) return 0;
    h->in_prio = 0;
    memset(&e, 0, sizeof(e));
    if (epoll_ctl(l->prio_fd, EPOLL_CTL_DEL, h->fd, &e) == 0) return 0;
    /* EBADF or ENOENT: the fd was closed (or its number reused) first. If
     * another descriptor of the file is still open, epoll keeps the entry
     * and would hand out h after it is freed: drop the whole set. */
    return prio_rebuild(l, h);
}

/* Stops watching h entirely (an error was reported, or io_stop). */
static void stop_all(struct tasync_handle *h) {
    ev_io_stop(h->loop->ev, &h->io);
    (void)prio_remove(h);
    h->events = 0;
}

/* ========================================================= callbacks */

static void on_io(struct ev_loop *ev, ev_io *w, int revents) {
    struct tasync_handle *h = w->data;
    struct tasync_loop *l = h->loop;
    unsigned ready = 0;
    (void)ev;
    if (h->closed) return;
    if (revents & EV_ERROR) {
        /* libev could not (re)register the fd and has stopped the watcher. */
        int err = fcntl(h->fd, F_GETFD) < 0 ? -errno : -EIO;
        stop_all(h);
        l->dispatched++;
        h->cb(h, h->data, err, 0);
        return;
    }
    if (revents & EV_READ) ready |= TASYNC_IO_READABLE;
    if (revents & EV_WRITE) ready |= TASYNC_IO_WRITABLE;
    ready &= h->events;
    if (ready == 0) return;
    l->dispatched++;
    h->cb(h, h->data, 0, ready);
}

/* The priority set is readable: dispatch what it holds. A handle closed
 * by an earlier callback of the same batch is still allocated (a zombie
 * until loop_run ends) and is skipped. */
static void on_prio(struct ev_loop *ev, ev_io *w, int revents) {
    struct tasync_loop *l = w->data;
    struct epoll_event evs[64];
    int n, i;
    (void)ev;
    (void)revents;
    n = epoll_wait(l->prio_fd, evs, 64, 0);
    for (i = 0; i < n; i++) {
        struct tasync_handle *h = evs[i].data.ptr;
        if (h->closed || !h->in_prio || !(h->events & TASYNC_IO_PRIORITY)) continue;
        if (fcntl(h->fd, F_GETFD) < 0) {
            /* G4: the caller closed the fd; another descriptor of the file
             * keeps the entry alive. Only an error may be reported. */
            int err = -errno;
            stop_all(h);
            l->dispatched++;
            h->cb(h, h->data, err, 0);
            continue;
        }
        /* Urgent data, or a hangup / an error (epoll reports those to
         * every entry): the caller looks and meets what is there. */
        l->dispatched++;
        h->cb(h, h->data, 0, TASYNC_IO_PRIORITY);
    }
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
            stop_all(h);
            l->dispatched++;
            h->cb(h, h->data, err, 0);
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
    /* ev_async_start makes the loop's eventfd and abort()s when it cannot
     * (EMFILE, ENFILE): a descriptor is made and closed first, so that a
     * process out of them gets an error instead (another thread could still
     * take it in between; libev's syserr callback cannot refuse). */
    {
        int probe = eventfd(0, EFD_CLOEXEC);
        if (probe < 0) {
            int err = errno;
            set_err(opts, "libev could not make its wakeup descriptor (eventfd): %s", err);
            ev_loop_destroy(l->ev);
            free(l);
            return -err;
        }
        close(probe);
    }
    /* The async stays referenced: it keeps ev_run blocking when the loop
     * has nothing else to wait for, as loop_run(-1) must. */
    ev_async_init(&l->wakeup, on_nothing_async);
    l->wakeup.data = l;
    ev_async_start(l->ev, &l->wakeup);
    ev_timer_init(&l->wait_timer, on_nothing_timer, 0., 0.);
    l->wait_timer.data = l;
    l->prio_fd = -1;
    *out = l;
    return 0;
}

static void ev_loop_destroy_(tasync_loop_t *loop) {
    struct tasync_handle *h;
    if (loop == NULL) return;
    for (h = loop->all; h != NULL; h = h->all_next) ev_io_stop(loop->ev, &h->io);
    ev_timer_stop(loop->ev, &loop->wait_timer);
    ev_async_stop(loop->ev, &loop->wakeup);
    if (loop->prio_fd >= 0) {
        ev_io_stop(loop->ev, &loop->prio_io);
        close(loop->prio_fd);
    }
    ev_loop_destroy(loop->ev);
    while (loop->all != NULL) free_handle(loop->all);
    free(loop);
}

/*
 * One iteration: check changed io registrations, then run libev once,
 * waiting at most the caller's timeout. libev dispatches io events from
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
    if (loop->dispatched > 0) wait = 0;
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

/* G11: libev re-creates its epoll set and its wakeup pipe at the next
 * ev_run and registers every watcher again (ev_loop_fork); until then it
 * only records changes. The priority set is the parent's too: the child
 * gets a new one. */
static int ev_loop_fork_(tasync_loop_t *loop) {
    if (loop == NULL) return -EINVAL;
    ev_loop_fork(loop->ev);
    if (loop->prio_fd >= 0) return prio_rebuild(loop, NULL);
    return 0;
}

/* ================================================================ io */

static int ev_io_open_(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL || fd < 0) return -EINVAL;
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
    ev_io_init(&h->io, on_io, fd, EV_READ);
    h->io.data = h;
    *out = h;
    return 0;
}

static int ev_io_stop_(tasync_handle_t *h) {
    if (h == NULL) return -EINVAL;
    if (h->events == 0) return 0;
    /* Dropping the interest never reaches libev's epoll_ctl (libev leaves
     * the fd registered until it reports an unwanted event), so no check;
     * the priority set is told at once. */
    ev_io_stop(h->loop->ev, &h->io);
    h->events = 0;
    return prio_remove(h);
}

static int ev_io_start_(tasync_handle_t *h, unsigned events) {
    struct tasync_loop *l;
    unsigned rw;
    int mask = 0, rc;
    if (h == NULL || h->closed) return -EINVAL;
    l = h->loop;
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE | TASYNC_IO_PRIORITY;
    if (events == h->events) return 0;
    if (events == 0) return ev_io_stop_(h);
    if ((events & TASYNC_IO_PRIORITY) && !h->in_prio) {
        if (l->prio_fd < 0 && (rc = prio_open(l)) != 0) return rc;
        /* A closed fd fails here (EBADF), before anything changed. */
        if ((rc = prio_add(l, h)) != 0) return rc;
    } else if (!(events & TASYNC_IO_PRIORITY) && h->in_prio) {
        if ((rc = prio_remove(h)) != 0) return rc;
    }
    rw = events & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE);
    if (rw != (h->events & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE))) {
        ev_io_stop(l->ev, &h->io);
        if (rw != 0) {
            if (rw & TASYNC_IO_READABLE) mask |= EV_READ;
            if (rw & TASYNC_IO_WRITABLE) mask |= EV_WRITE;
            ev_io_set(&h->io, h->fd, mask);
            ev_io_start(l->ev, &h->io);
        }
    }
    h->events = events;
    mark_dirty(h);
    return 0;
}

static void ev_handle_close_(tasync_handle_t *h) {
    if (h == NULL || h->closed) return;
    h->closed = 1;
    /* Out of the priority set before the memory can go (G3). */
    stop_all(h);
    maybe_release(h);
}

/* ============================================================= table */

static char g_version[64];

/* The slots left out (timers, signals, children, completion ops, offload)
 * stay NULL: the core owns timers, signals and children since ABI 1.2, and
 * emulates completion ops and offload. */
static const tasync_backend_t g_table = {
    .size = sizeof(tasync_backend_t),
    .abi_version = TASYNC_ABI_VERSION,
    .name = EV_BACKEND_NAME,
    .version = g_version,
    .capabilities = TASYNC_CAP_PRIORITY,
    .loop_create = ev_loop_create_,
    .loop_destroy = ev_loop_destroy_,
    .loop_run = ev_loop_run_,
    .loop_wakeup = ev_loop_wakeup_,
    .loop_now = ev_loop_now_,
    .io_open = ev_io_open_,
    .io_start = ev_io_start_,
    .io_stop = ev_io_stop_,
    .handle_close = ev_handle_close_,
    .loop_fork = ev_loop_fork_,
};

/* Runs once when the shared object is loaded. */
__attribute__((constructor)) static void ev_backend_init(void) {
    snprintf(g_version, sizeof(g_version), "libev %d.%d", ev_version_major(), ev_version_minor());
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
