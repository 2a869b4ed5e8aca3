/*
 * tasync-backend-uv: the reactor contract (api/include/tasync/reactor.h) on
 * libuv. Exports only tasync_backend_entry.
 *
 * Notes on libuv that shape this file:
 *  - uv_run has no timeout: a bounded wait arms a private timer (rounded up
 *    to libuv's millisecond) and runs UV_RUN_ONCE.
 *  - libuv aborts if epoll_ctl fails on an fd that was closed behind its back;
 *    io_start therefore checks the fd and re-registers it from scratch when
 *    the interest changes (G4).
 *  - libuv reports POLLERR as UV_EBADF and stops the poll. When the fd is in
 *    fact valid (a pipe whose reader left, a socket with a pending error)
 *    that is turned into a level-triggered TASYNC_IO_ERROR report instead,
 *    so that the caller tries its operation and sees the real error.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <uv.h>

#define UV_BACKEND_NAME "uv"

struct tasync_loop {
    uv_loop_t uv;
    uv_async_t wakeup;
    uv_timer_t run_timer;
    int dispatched;
    int destroying;
};

/* An io handle. */
struct tasync_handle {
    uv_poll_t poll;
    int closed;
    struct tasync_loop *loop;
    tasync_io_cb cb;
    void *data;
    int fd;
    unsigned events;
};

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

/*
 * uv_loop_init (libuv 1.44) under EMFILE/ENFILE: the first one of the
 * process runs libuv's one-time set-up, which makes a pipe and abort()s
 * when it cannot; and every one makes the epoll descriptor first, then the
 * loop's signal pipe, and when that pipe fails it returns UV_EMFILE but
 * leaks the epoll descriptor (one per failed attempt: a script retrying
 * never gets its runtime). So the descriptors it needs (epoll, the loop's
 * pipe, the one-time pipe until one loop was made) are made and closed
 * first, and a process out of them gets an error with nothing lost
 * (another thread could still take them in between; libuv offers nothing
 * better).
 */
static atomic_int uv_once_done;

static int uv_loop_preflight(void) {
    int fds[6], n = 0, err = 0;
    const int need = atomic_load(&uv_once_done) ? 3 : 5;
    while (n < need) {
        if (pipe(fds + n) != 0) {
            err = -errno;
            break;
        }
        n += 2;
    }
    while (n > 0) close(fds[--n]);
    return err;
}

static int uv_loop_create_(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    struct tasync_loop *l = calloc(1, sizeof(*l));
    int rc;
    if (l == NULL) return -ENOMEM;
    rc = uv_loop_preflight();
    if (rc != 0) {
        set_err(opts, "no descriptors left for a libuv loop", uv_translate_sys_error(-rc));
        free(l);
        return rc;
    }
    rc = uv_loop_init(&l->uv);
    if (rc == 0) atomic_store(&uv_once_done, 1);
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

static void free_on_close(uv_handle_t *uvh) { free(uvh->data); }

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
    /* Close callbacks run here. */
    while (uv_loop_close(&loop->uv) == UV_EBUSY) uv_run(&loop->uv, UV_RUN_ONCE);
    free(loop);
}

/* One iteration: poll (bounded by the caller's timeout) and dispatch what
 * libuv reports. */
static int uv_loop_run_(tasync_loop_t *loop, int64_t wait) {
    loop->dispatched = 0;
    if (wait == 0) {
        uv_run(&loop->uv, UV_RUN_NOWAIT);
    } else if (wait < 0) {
        uv_run(&loop->uv, UV_RUN_ONCE);
    } else {
        /* Rounded up to libuv's millisecond, so that a wait never ends
         * before the caller's deadline. The deadline's callback stops the
         * loop (see wait_deadline). */
        uint64_t ms = ms_from_ns_ceil((uint64_t)wait);
        uv_update_time(&loop->uv);
        uv_timer_start(&loop->run_timer, wait_deadline, ms, 0);
        uv_run(&loop->uv, UV_RUN_ONCE);
        uv_timer_stop(&loop->run_timer);
    }
    return loop->dispatched;
}

static int uv_loop_wakeup_(tasync_loop_t *loop) { return uv_async_send(&loop->wakeup); }

static uint64_t uv_loop_now_(tasync_loop_t *loop) {
    (void)loop;
    return uv_hrtime();
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
                h->cb(h, h->data, 0, TASYNC_IO_ERROR | (h->events & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE)));
                return;
            }
        }
        h->events = 0;
        h->cb(h, h->data, status, 0);
        return;
    }
    if (uvevents & UV_READABLE) ev |= TASYNC_IO_READABLE;
    if (uvevents & UV_WRITABLE) ev |= TASYNC_IO_WRITABLE;
    if (uvevents & UV_DISCONNECT) ev |= TASYNC_IO_HANGUP;
    if (uvevents & UV_PRIORITIZED) ev |= TASYNC_IO_PRIORITY;
    h->cb(h, h->data, 0, ev);
}

static int uv_io_open_(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out) {
    struct tasync_handle *h;
    int rc;
    if (cb == NULL || out == NULL || fd < 0) return -EINVAL;
    h = calloc(1, sizeof(*h));
    if (h == NULL) return -ENOMEM;
    rc = uv_poll_init(&loop->uv, &h->poll, fd);
    if (rc != 0) {
        free(h);
        return rc;
    }
    h->poll.data = h;
    h->loop = loop;
    h->cb = cb;
    h->data = data;
    h->fd = fd;
    *out = h;
    return 0;
}

static int uv_io_start_(tasync_handle_t *h, unsigned events) {
    int rc;
    if (h == NULL || h->closed) return -EINVAL;
    if (events == 0) {
        h->events = 0;
        return uv_poll_stop(&h->poll);
    }
    if (events == h->events) return 0;
    /* libuv aborts when epoll_ctl meets a closed fd; refuse it here. */
    if (fcntl(h->fd, F_GETFD) < 0) return -errno;
    /* Re-register from scratch: the fd number may belong to a new file. */
    if (h->events != 0) uv_poll_stop(&h->poll);
    rc = uv_poll_start(&h->poll, uv_events_of(events), on_poll);
    if (rc == 0) h->events = events;
    return rc;
}

static int uv_io_stop_(tasync_handle_t *h) {
    if (h == NULL) return -EINVAL;
    h->events = 0;
    return uv_poll_stop(&h->poll);
}

static void uv_handle_close_(tasync_handle_t *h) {
    if (h == NULL || h->closed) return;
    h->closed = 1;
    uv_close((uv_handle_t *)&h->poll, free_on_close);
}

/* ------------------------------------------------------------------ fork */

/* G11: libuv gives the loop a new epoll set and wakeup and registers every
 * watcher again (uv_loop_fork). */
static int uv_loop_fork_(tasync_loop_t *loop) {
    if (loop == NULL) return -EINVAL;
    return uv_loop_fork(&loop->uv);
}

/* ----------------------------------------------------------------- table */

static char g_version[64];

/* The slots left out stay NULL: the core owns timers, signals and children
 * since ABI 1.2, and runs offloaded work on its own pool since ABI 1.3
 * (libuv's pool aborts the process when it cannot start a thread). */
static const tasync_backend_t g_table = {
    .size = sizeof(tasync_backend_t),
    .abi_version = TASYNC_ABI_VERSION,
    .name = UV_BACKEND_NAME,
    .version = g_version,
    .capabilities = TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY,
    .loop_create = uv_loop_create_,
    .loop_destroy = uv_loop_destroy_,
    .loop_run = uv_loop_run_,
    .loop_wakeup = uv_loop_wakeup_,
    .loop_now = uv_loop_now_,
    .io_open = uv_io_open_,
    .io_start = uv_io_start_,
    .io_stop = uv_io_stop_,
    .handle_close = uv_handle_close_,
    .loop_fork = uv_loop_fork_,
};

/* Runs once when the shared object is loaded. */
__attribute__((constructor)) static void uv_backend_init(void) {
    snprintf(g_version, sizeof(g_version), "libuv %s", uv_version_string());
}

TASYNC_BACKEND_ENTRY_DEFINE {
    if (TASYNC_ABI_MAJOR_OF(core_abi_version) != TASYNC_ABI_VERSION_MAJOR) return NULL;
    return &g_table;
}
