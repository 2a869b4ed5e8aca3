/*
 * A deliberately tiny reactor written against the installed tasync headers
 * only (found through pkg-config): readiness and timeouts on poll(2), timers
 * as a list, wakeup through a pipe. Signals and child watches are not
 * offered (-ENOSYS). It proves the ABI can be implemented out of tree.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_IO 64

struct tasync_handle {
    struct tasync_loop *loop;
    int is_timer, open, fd;
    unsigned events;
    uint64_t deadline, repeat;
    tasync_timer_cb timer_cb;
    tasync_io_cb io_cb;
    void *data;
};

struct tasync_loop {
    int wake[2];
    struct tasync_handle *h[MAX_IO];
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int create(const tasync_loop_options_t *o, tasync_loop_t **out) {
    struct tasync_loop *l = calloc(1, sizeof(*l));
    (void)o;
    if (l == NULL) return -ENOMEM;
    if (pipe2(l->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        free(l);
        return -errno;
    }
    *out = l;
    return 0;
}

static void destroy(tasync_loop_t *l) {
    int i;
    if (l == NULL) return;
    for (i = 0; i < MAX_IO; i++) free(l->h[i]);
    close(l->wake[0]);
    close(l->wake[1]);
    free(l);
}

static int add(struct tasync_loop *l, struct tasync_handle *h) {
    int i;
    for (i = 0; i < MAX_IO; i++)
        if (l->h[i] == NULL) {
            l->h[i] = h;
            return 0;
        }
    return -ENOSPC;
}

static int run(tasync_loop_t *l, int64_t timeout_ns) {
    struct pollfd p[MAX_IO + 1];
    struct tasync_handle *who[MAX_IO + 1];
    int n = 1, i, rc, ms, fired = 0;
    uint64_t t = now_ns();
    p[0].fd = l->wake[0];
    p[0].events = POLLIN;
    for (i = 0; i < MAX_IO; i++) {
        struct tasync_handle *h = l->h[i];
        if (h == NULL || !h->open) continue;
        if (h->is_timer && h->deadline != 0) {
            int64_t left = (int64_t)(h->deadline - t);
            if (left < 0) left = 0;
            if (timeout_ns < 0 || left < timeout_ns) timeout_ns = left;
        } else if (!h->is_timer && h->events != 0) {
            p[n].fd = h->fd;
            p[n].events = (short)(((h->events & TASYNC_IO_READABLE) ? POLLIN : 0) |
                                  ((h->events & TASYNC_IO_WRITABLE) ? POLLOUT : 0));
            who[n++] = h;
        }
    }
    ms = timeout_ns < 0 ? -1 : (int)((timeout_ns + 999999) / 1000000);
    rc = poll(p, (nfds_t)n, ms);
    if (rc < 0) return errno == EINTR ? 0 : -errno;
    if (p[0].revents) {
        char buf[64];
        while (read(l->wake[0], buf, sizeof(buf)) > 0) {}
    }
    for (i = 1; i < n; i++) {
        unsigned ev = 0;
        if (!p[i].revents || !who[i]->open) continue;
        if (p[i].revents & POLLIN) ev |= TASYNC_IO_READABLE;
        if (p[i].revents & POLLOUT) ev |= TASYNC_IO_WRITABLE;
        if (p[i].revents & POLLHUP) ev |= TASYNC_IO_HANGUP;
        if (p[i].revents & POLLERR) ev |= TASYNC_IO_ERROR;
        fired++;
        who[i]->io_cb(who[i], who[i]->data, 0, ev);
    }
    t = now_ns();
    for (i = 0; i < MAX_IO; i++) {
        struct tasync_handle *h = l->h[i];
        if (h == NULL || !h->open || !h->is_timer || h->deadline == 0 || h->deadline > t) continue;
        h->deadline = h->repeat ? h->deadline + h->repeat : 0;
        fired++;
        h->timer_cb(h, h->data);
    }
    return fired;
}

static int wakeup(tasync_loop_t *l) { return write(l->wake[1], "x", 1) == 1 || errno == EAGAIN ? 0 : -errno; }
static uint64_t now(tasync_loop_t *l) { (void)l; return now_ns(); }

static int open_handle(tasync_loop_t *l, int fd, tasync_timer_cb tcb, tasync_io_cb icb, void *data,
                       tasync_handle_t **out) {
    struct tasync_handle *h = calloc(1, sizeof(*h));
    int rc;
    if (h == NULL) return -ENOMEM;
    h->loop = l;
    h->is_timer = tcb != NULL;
    h->open = 1;
    h->fd = fd;
    h->timer_cb = tcb;
    h->io_cb = icb;
    h->data = data;
    rc = add(l, h);
    if (rc != 0) {
        free(h);
        return rc;
    }
    *out = h;
    return 0;
}

static int timer_open(tasync_loop_t *l, tasync_timer_cb cb, void *d, tasync_handle_t **o) { return open_handle(l, -1, cb, NULL, d, o); }
static int timer_start(tasync_handle_t *h, uint64_t t, uint64_t r) { h->deadline = now_ns() + t; h->repeat = r; return 0; }
static int timer_stop(tasync_handle_t *h) { h->deadline = 0; return 0; }
static int io_open(tasync_loop_t *l, int fd, tasync_io_cb cb, void *d, tasync_handle_t **o) { return open_handle(l, fd, NULL, cb, d, o); }
static int io_start(tasync_handle_t *h, unsigned ev) { h->events = ev; return 0; }
static int io_stop(tasync_handle_t *h) { h->events = 0; return 0; }

static void handle_close(tasync_handle_t *h) {
    int i;
    if (h == NULL) return;
    for (i = 0; i < MAX_IO; i++)
        if (h->loop->h[i] == h) h->loop->h[i] = NULL;
    free(h);
}

static int signal_open(tasync_loop_t *l, int s, tasync_signal_cb cb, void *d, tasync_handle_t **o) {
    (void)l; (void)s; (void)cb; (void)d; (void)o;
    return -ENOSYS;
}
static int child_open(tasync_loop_t *l, int p, tasync_child_cb cb, void *d, tasync_handle_t **o) {
    (void)l; (void)p; (void)cb; (void)d; (void)o;
    return -ENOSYS;
}

static const tasync_backend_t table = {
    sizeof(tasync_backend_t), TASYNC_ABI_VERSION, "tiny", "tiny 1.0", 0, 0,
    create, destroy, run, wakeup, now, timer_open, timer_start, timer_stop,
    io_open, io_start, io_stop, handle_close, signal_open, child_open,
    NULL, NULL, NULL, NULL,
};

TASYNC_BACKEND_ENTRY_DEFINE {
    (void)core_abi_version;
    return &table;
}
