/*
 * Deliberately defective or unusual backends for the loader tests. One
 * source, compiled once per FAKE_KIND. The working variants borrow libuv's
 * table from the real uv backend (found through $TASYNC_BACKEND_DIR) and
 * change what the test is about.
 *
 * FAKE_ABI_1_1 is a backend as it was built against the ABI 1.1 headers:
 * its table has that release's layout (pinned below, independent of the
 * current reactor.h), says ABI 1.1, and fills every slot of that release,
 * timers, signal and child watches included. The core of ABI 1.2 must load
 * it and never call those three kinds of entries: each aborts the process.
 */
#define _GNU_SOURCE
#include <tasync/backend.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_NO_ENTRY 1      /* exports no entry symbol */
#define FAKE_NULL_TABLE 2    /* entry returns NULL */
#define FAKE_WRONG_MAJOR 3   /* built for ABI 2.0 */
#define FAKE_TOO_SMALL 4     /* table smaller than ABI 1.0 requires */
#define FAKE_MISSING_OP 5    /* io_start is NULL */
#define FAKE_INIT_FAILS 6    /* loop_create fails with a reason */
#define FAKE_OLDER_MINOR 7   /* table ends at child_open: optional entries absent */
#define FAKE_NEWER_MINOR 8   /* a newer minor with extra members at the end */
#define FAKE_ABI_1_1 9       /* an ABI 1.1 backend, every slot of that table filled */
#define FAKE_SLOW_CLOCK 10   /* uv whose clock takes 100 us: widens the windows around it */
#define FAKE_SLOW_WAKEUP 11  /* uv whose wakeup waits 20 ms before it wakes the loop */
#define FAKE_COARSE_WAIT 12  /* uv whose bounded waits last a whole second at least */
#define FAKE_CTOR_PROBE 13   /* uv, and a constructor that leaves a mark when it runs */
#define FAKE_OPTIONS_PROBE 14 /* loop_create fails, naming the loop options it was given */

#ifndef FAKE_KIND
#error FAKE_KIND must be defined
#endif

__attribute__((unused)) static const tasync_backend_t *real_uv(void) {
    char path[4096];
    const char *dir = getenv("TASYNC_BACKEND_DIR");
    void *dl;
    tasync_backend_entry_fn entry;
    snprintf(path, sizeof(path), "%s/tasync-backend-uv.so", dir != NULL ? dir : ".");
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) return NULL;
    *(void **)&entry = dlsym(dl, TASYNC_BACKEND_ENTRY_SYMBOL);
    return entry != NULL ? entry(TASYNC_ABI_VERSION) : NULL;
}

#if FAKE_KIND == FAKE_NO_ENTRY

TASYNC_PLUGIN_EXPORT int not_the_entry(void) { return 0; }

#elif FAKE_KIND == FAKE_ABI_1_1

#include <stddef.h>

/* The backend table of ABI 1.1, member for member. */
struct abi11_table {
    uint32_t size;
    uint32_t abi_version;
    const char *name;
    const char *version;
    uint64_t capabilities;
    uint64_t op_mask;
    int (*loop_create)(const tasync_loop_options_t *opts, tasync_loop_t **out);
    void (*loop_destroy)(tasync_loop_t *loop);
    int (*loop_run)(tasync_loop_t *loop, int64_t timeout_ns);
    int (*loop_wakeup)(tasync_loop_t *loop);
    uint64_t (*loop_now)(tasync_loop_t *loop);
    int (*timer_open)(tasync_loop_t *loop, void (*cb)(tasync_handle_t *, void *), void *data, tasync_handle_t **out);
    int (*timer_start)(tasync_handle_t *timer, uint64_t timeout_ns, uint64_t repeat_ns);
    int (*timer_stop)(tasync_handle_t *timer);
    int (*io_open)(tasync_loop_t *loop, int fd, tasync_io_cb cb, void *data, tasync_handle_t **out);
    int (*io_start)(tasync_handle_t *io, unsigned events);
    int (*io_stop)(tasync_handle_t *io);
    void (*handle_close)(tasync_handle_t *handle);
    int (*signal_open)(tasync_loop_t *loop, int signum, void (*cb)(tasync_handle_t *, void *, int), void *data,
                       tasync_handle_t **out);
    int (*child_open)(tasync_loop_t *loop, int pid, void (*cb)(tasync_handle_t *, void *, int, int, int), void *data,
                      tasync_handle_t **out);
    int (*op_submit)(tasync_loop_t *loop, tasync_op_t *op);
    int (*op_cancel)(tasync_loop_t *loop, tasync_op_t *op);
    int (*work_submit)(tasync_loop_t *loop, tasync_work_t *work);
    int (*work_cancel)(tasync_loop_t *loop, tasync_work_t *work);
    int (*loop_fork)(tasync_loop_t *loop);
};

/* The layout api/tests/abi_layout_test.cpp pinned for ABI 1.1 (LP64). */
_Static_assert(sizeof(void *) != 8 || sizeof(struct abi11_table) == 192, "ABI 1.1 table size");
_Static_assert(sizeof(void *) != 8 || offsetof(struct abi11_table, timer_open) == 80, "ABI 1.1 timer_open");
_Static_assert(sizeof(void *) != 8 || offsetof(struct abi11_table, io_open) == 104, "ABI 1.1 io_open");
_Static_assert(sizeof(void *) != 8 || offsetof(struct abi11_table, signal_open) == 136, "ABI 1.1 signal_open");
_Static_assert(sizeof(void *) != 8 || offsetof(struct abi11_table, child_open) == 144, "ABI 1.1 child_open");
_Static_assert(sizeof(void *) != 8 || offsetof(struct abi11_table, loop_fork) == 184, "ABI 1.1 loop_fork");

static void never(const char *what) {
    fprintf(stderr, "fake-backend-abi-1-1: the core called %s, which it must never do since ABI 1.2\n", what);
    fflush(stderr);
    abort();
}
static int retired_timer_open(tasync_loop_t *l, void (*cb)(tasync_handle_t *, void *), void *d, tasync_handle_t **o) {
    (void)l, (void)cb, (void)d, (void)o;
    never("timer_open");
    return -ENOSYS;
}
static int retired_timer_start(tasync_handle_t *h, uint64_t t, uint64_t r) {
    (void)h, (void)t, (void)r;
    never("timer_start");
    return -ENOSYS;
}
static int retired_timer_stop(tasync_handle_t *h) {
    (void)h;
    never("timer_stop");
    return -ENOSYS;
}
static int retired_signal_open(tasync_loop_t *l, int s, void (*cb)(tasync_handle_t *, void *, int), void *d,
                               tasync_handle_t **o) {
    (void)l, (void)s, (void)cb, (void)d, (void)o;
    never("signal_open");
    return -ENOSYS;
}
static int retired_child_open(tasync_loop_t *l, int p, void (*cb)(tasync_handle_t *, void *, int, int, int), void *d,
                              tasync_handle_t **o) {
    (void)l, (void)p, (void)cb, (void)d, (void)o;
    never("child_open");
    return -ENOSYS;
}

static struct abi11_table g_old;

TASYNC_BACKEND_ENTRY_DEFINE {
    /* The loop and io entries are the real uv backend's (its own table may
     * be of a later ABI: only the entries 1.1 had are taken). */
    const tasync_backend_t *uv = real_uv();
    (void)core_abi_version;
    if (uv == NULL) return NULL;
    g_old.size = (uint32_t)sizeof(g_old);
    g_old.abi_version = TASYNC_ABI_MAKE(1, 1);
    g_old.name = "abi-1-1";
    g_old.version = "a backend built against ABI 1.1";
    /* What a 1.1 backend on a pidfd kernel said of itself. */
    g_old.capabilities = uv->capabilities | TASYNC_CAP_PIDFD;
    g_old.op_mask = uv->op_mask;
    g_old.loop_create = uv->loop_create;
    g_old.loop_destroy = uv->loop_destroy;
    g_old.loop_run = uv->loop_run;
    g_old.loop_wakeup = uv->loop_wakeup;
    g_old.loop_now = uv->loop_now;
    g_old.timer_open = retired_timer_open;
    g_old.timer_start = retired_timer_start;
    g_old.timer_stop = retired_timer_stop;
    g_old.io_open = uv->io_open;
    g_old.io_start = uv->io_start;
    g_old.io_stop = uv->io_stop;
    g_old.handle_close = uv->handle_close;
    g_old.signal_open = retired_signal_open;
    g_old.child_open = retired_child_open;
    g_old.op_submit = uv->op_submit;
    g_old.op_cancel = uv->op_cancel;
    g_old.work_submit = uv->work_submit;
    g_old.work_cancel = uv->work_cancel;
    g_old.loop_fork = uv->loop_fork;
    return (const tasync_backend_t *)(const void *)&g_old;
}

#else

struct bigger {
    tasync_backend_t base;
    void *future_member_1;
    void *future_member_2;
};

static struct bigger g_table;

static uint64_t (*g_real_now)(tasync_loop_t *loop);

static uint64_t slow_now(tasync_loop_t *loop) {
    struct timespec ts = {0, 100 * 1000};
    nanosleep(&ts, NULL);
    return g_real_now(loop);
}

static int (*g_real_wakeup)(tasync_loop_t *loop);

static int slow_wakeup(tasync_loop_t *loop) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return g_real_wakeup(loop);
}

/* A backend whose timeout has a coarse unit, as epoll_wait's millisecond
 * is, made a thousand times coarser so that a test can tell without
 * timing anything fine: every bounded wait is rounded up to whole seconds. */
static int (*g_real_run)(tasync_loop_t *loop, int64_t timeout_ns);

static int coarse_run(tasync_loop_t *loop, int64_t timeout_ns) {
    const int64_t s = 1000000000;
    if (timeout_ns > 0) timeout_ns = (timeout_ns + s - 1) / s * s;
    return g_real_run(loop, timeout_ns);
}

#if FAKE_KIND == FAKE_CTOR_PROBE
/* Runs when the object is mapped, before the loader could look at its
 * table: the loader tests (and ext-php's) prove a refused file never got
 * this far. Appends a line to $TASYNC_CTOR_PROBE when it is set. */
__attribute__((constructor)) static void ctor_probe(void) {
    const char *mark = getenv("TASYNC_CTOR_PROBE");
    FILE *f;
    if (mark == NULL || *mark == '\0') return;
    f = fopen(mark, "a");
    if (f == NULL) return;
    fputs("the constructor ran\n", f);
    fclose(f);
}
#endif

/* What the runtime hands loop_create (ABI 1.3: the host's thread pool
 * size), said in the reason of a refusal so that a test can read it. */
static int options_probe_create(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    (void)out;
    if (opts != NULL && opts->errbuf != NULL)
        snprintf(opts->errbuf, opts->errbuf_size, "options of %u bytes, thread_pool_size=%u", opts->size,
                 TASYNC_TABLE_HAS(opts, tasync_loop_options_t, thread_pool_size) ? opts->thread_pool_size : 0u);
    return -EPERM;
}

static int failing_create(const tasync_loop_options_t *opts, tasync_loop_t **out) {
    (void)out;
    if (opts != NULL && opts->errbuf != NULL)
        snprintf(opts->errbuf, opts->errbuf_size, "io_uring_queue_init: Operation not permitted (simulated refusal)");
    return -EPERM;
}

TASYNC_BACKEND_ENTRY_DEFINE {
    const tasync_backend_t *uv;
    (void)core_abi_version;
    if (FAKE_KIND == FAKE_NULL_TABLE) return NULL;
    uv = real_uv();
    if (uv == NULL) return NULL;
    memcpy(&g_table.base, uv, sizeof(g_table.base));
    g_table.base.name = "fake";
    switch (FAKE_KIND) {
        case FAKE_WRONG_MAJOR: g_table.base.abi_version = TASYNC_ABI_MAKE(2, 0); break;
        case FAKE_TOO_SMALL: g_table.base.size = (uint32_t)offsetof(tasync_backend_t, io_open); break;
        case FAKE_MISSING_OP: g_table.base.io_start = NULL; break;
        case FAKE_INIT_FAILS: g_table.base.loop_create = failing_create; break;
        case FAKE_OPTIONS_PROBE: g_table.base.loop_create = options_probe_create; break;
        case FAKE_SLOW_WAKEUP:
            g_real_wakeup = uv->loop_wakeup;
            g_table.base.loop_wakeup = slow_wakeup;
            break;
        case FAKE_COARSE_WAIT:
            g_real_run = uv->loop_run;
            g_table.base.loop_run = coarse_run;
            g_table.base.capabilities &= ~(uint64_t)TASYNC_CAP_PRECISE_TIMEOUT;
            break;
        case FAKE_SLOW_CLOCK:
            g_real_now = uv->loop_now;
            g_table.base.loop_now = slow_now;
            break;
        case FAKE_OLDER_MINOR:
            /* As if ABI 1.0 had ended at child_open: the capability bits
             * still claim offload, but the members are not in the table. */
            g_table.base.size = (uint32_t)TASYNC_BACKEND_REQUIRED_SIZE;
            g_table.base.capabilities |= TASYNC_CAP_OFFLOAD | TASYNC_CAP_COMPLETION;
            g_table.base.op_submit = NULL; /* beyond size anyway */
            break;
        case FAKE_NEWER_MINOR:
            g_table.base.size = (uint32_t)sizeof(g_table);
            g_table.base.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR + 5);
            g_table.future_member_1 = (void *)&g_table;
            g_table.future_member_2 = (void *)&g_table;
            break;
        default: break;
    }
    return &g_table.base;
}

#endif
