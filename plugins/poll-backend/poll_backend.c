/*
 * tasync-backend-poll: a complete reactor for tasync on poll(2), written in
 * plain C99 and POSIX against the installed tasync headers only (found
 * through pkg-config). It implements every required entry of the contract
 * in <tasync/reactor.h> and loop_fork; completion operations and
 * offloading are left to the core, which emulates them, as it keeps timers,
 * signals and child exits for every backend.
 *
 * How it works:
 *  - Each loop keeps a pollfd array: slot 0 is the loop's wakeup pipe, then
 *    one slot per io handle with an interest. poll(2) is level-triggered
 *    (G5); an fd closed under its handle comes back as POLLNVAL and is
 *    reported as -EBADF (G4).
 *  - Before any callback runs, the ready slots are copied into a list of
 *    (handle, revents) so callbacks may open, change and close handles
 *    freely (G2); a closed handle is skipped and stays allocated until the
 *    loop_run ends (G3).
 *  - The timeout is rounded up to whole milliseconds, so a wait never ends
 *    before the caller's deadline.
 *  - Wakeup: one byte into the loop's pipe (thread-safe).
 */
#define _POSIX_C_SOURCE 200809L

#include <tasync/backend.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POLL_BACKEND_NAME "poll"
#define POLL_BACKEND_VERSION "poll 1.2 (poll(2))"

#define NO_SLOT ((size_t)-1)
#define FIRST_HANDLE_SLOT 1

/* An io handle. */
struct tasync_handle {
    int closed; /* handle_close was called: no more callbacks */
    int in_zombies;
    struct tasync_loop *loop;
    tasync_io_cb cb;
    void *data;
    struct tasync_handle *all_prev, *all_next;
    struct tasync_handle *zombie_next;
    int fd;
    unsigned events; /* wanted TASYNC_IO_* bits; 0 = stopped */
    size_t slot;     /* index in loop->pfd, or NO_SLOT */
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
};

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

/* ========================================================= handle list */

static void free_handle(struct tasync_handle *h) {
    struct tasync_loop *l = h->loop;
    if (h->all_prev != NULL) h->all_prev->all_next = h->all_next;
    else l->all = h->all_next;
    if (h->all_next != NULL) h->all_next->all_prev = h->all_prev;
    free(h);
}

/* ============================================================ pollfds */

static int pfd_add(struct tasync_loop *l, struct tasync_handle *h, short events) {
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
    l->pfd[l->npfd].fd = h->fd;
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

static void dispatch_io(struct tasync_handle *h, short re) {
    struct tasync_loop *l = h->loop;
    unsigned ev = 0;
    if (re & POLLNVAL) {
        /* The fd was closed under the handle (G4). */
        pfd_remove(l, h);
        h->events = 0;
        l->dispatched++;
        h->cb(h, h->data, -EBADF, 0);
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
    h->cb(h, h->data, 0, ev);
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
    rc = l->pfd == NULL || l->owner == NULL ? -ENOMEM : make_pipe(l->wake);
    if (rc != 0) {
        set_err(opts, "cannot create the wakeup pipe", -rc);
        free(l->pfd);
        free(l->owner);
        free(l);
        return rc;
    }
    l->pfd[0].fd = l->wake[0];
    l->pfd[0].events = POLLIN;
    l->npfd = FIRST_HANDLE_SLOT;
    *out = l;
    return 0;
}

static void poll_loop_destroy(tasync_loop_t *loop) {
    if (loop == NULL) return;
    while (loop->all != NULL) free_handle(loop->all);
    close(loop->wake[0]);
    close(loop->wake[1]);
    free(loop->pfd);
    free(loop->owner);
    free(loop->ready);
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

static int poll_loop_run(tasync_loop_t *loop, int64_t wait) {
    int ms, rc, err = 0;
    long nready, i;
    if (loop == NULL) return -EINVAL;
    if (loop->in_run) return -EBUSY; /* not re-entrant */
    loop->in_run = 1;
    loop->dispatched = 0;
    /* Whole milliseconds, rounded up: the wait never ends before the
     * caller's deadline. */
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
    nready = rc > 0 ? collect_ready(loop) : 0;
    if (nready < 0) {
        err = -ENOMEM;
        nready = 0;
    }
    for (i = 0; i < nready; i++) {
        struct tasync_handle *h = loop->ready[i].h;
        if (!h->closed && h->events != 0) dispatch_io(h, loop->ready[i].revents); /* G3 */
    }
    loop->in_run = 0;
    while (loop->zombies != NULL) {
        struct tasync_handle *h = loop->zombies;
        loop->zombies = h->zombie_next;
        free_handle(h);
    }
    return err < 0 ? err : loop->dispatched;
}

/* G11: poll(2) keeps no state in the kernel; only the loop's wakeup pipe is
 * shared with the parent's copy of the loop, so the child gets its own. */
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

/* ================================================================== io */

static int poll_io_open(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    if (loop == NULL || cb == NULL || out == NULL || fd < 0) return -EINVAL;
    if (fcntl(fd, F_GETFD) < 0) return -errno;
    h = calloc(1, sizeof(*h));
    if (h == NULL) return -ENOMEM;
    h->loop = loop;
    h->cb = cb;
    h->data = data;
    h->fd = fd;
    h->slot = NO_SLOT;
    h->all_next = loop->all;
    if (loop->all != NULL) loop->all->all_prev = h;
    loop->all = h;
    *out = h;
    return 0;
}

static int poll_io_stop(tasync_handle_t *h) {
    if (h == NULL) return -EINVAL;
    pfd_remove(h->loop, h);
    h->events = 0;
    return 0;
}

static int poll_io_start(tasync_handle_t *h, unsigned events) {
    if (h == NULL || h->closed) return -EINVAL;
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE | TASYNC_IO_PRIORITY;
    if (events == 0) return poll_io_stop(h);
    if (h->slot == NO_SLOT) {
        int rc = pfd_add(h->loop, h, poll_events_of(events));
        if (rc != 0) return rc;
    } else {
        h->loop->pfd[h->slot].events = poll_events_of(events);
    }
    h->events = events;
    return 0;
}

/* No callback after this (G3); inside loop_run the memory stays until the
 * run ends, since the ready list may still name the handle. */
static void poll_handle_close(tasync_handle_t *h) {
    struct tasync_loop *l;
    if (h == NULL || h->closed) return;
    l = h->loop;
    h->closed = 1;
    pfd_remove(l, h);
    h->events = 0;
    if (!l->in_run) {
        free_handle(h);
    } else if (!h->in_zombies) {
        h->in_zombies = 1;
        h->zombie_next = l->zombies;
        l->zombies = h;
    }
}

/* =============================================================== table */

/* The slots left out (timers, signals, children, completion ops, offload)
 * stay NULL: the core owns timers, signals and children since ABI 1.2, and
 * emulates completion ops and offload with its own thread pool. */
static const tasync_backend_t g_table = {
    .size = sizeof(tasync_backend_t),
    .abi_version = TASYNC_ABI_VERSION,
    .name = POLL_BACKEND_NAME,
    .version = POLL_BACKEND_VERSION,
    .capabilities = TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY,
    .loop_create = poll_loop_create,
    .loop_destroy = poll_loop_destroy,
    .loop_run = poll_loop_run,
    .loop_wakeup = poll_loop_wakeup,
    .loop_now = poll_loop_now,
    .io_open = poll_io_open,
    .io_start = poll_io_start,
    .io_stop = poll_io_stop,
    .handle_close = poll_handle_close,
    .loop_fork = poll_loop_fork,
};

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
