/*
 * tasync-demo: concurrent coroutines on the default (libuv) backend, with
 * timers and pipe I/O, through the C ABI only.
 *
 *  - three workers sleep 300, 200 and 100 ms concurrently: the whole thing
 *    takes about 300 ms (the max), not 600 ms (the sum);
 *  - a producer writes lines into a pipe while a consumer waits for the
 *    pipe to become readable and reads them;
 *  - a watchdog is cancelled once the others are done.
 */
#define _GNU_SOURCE
#include <tasync/tasync.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static tasync_runtime_t *rt;
static uint64_t t0;
static int pipefd[2];

static double ms(void) { return (double)(tasync_runtime_now(rt) - t0) / 1e6; }

static void worker(tasync_coroutine_t *self, void *arg) {
    long delay = (long)arg;
    printf("[%6.1f ms] worker %llu: sleeping %ld ms\n", ms(), (unsigned long long)tasync_coroutine_id(self), delay);
    tasync_delay(rt, (uint64_t)delay * 1000000u, NULL, NULL);
    printf("[%6.1f ms] worker %llu: done\n", ms(), (unsigned long long)tasync_coroutine_id(self));
}

static void producer(tasync_coroutine_t *self, void *arg) {
    char line[64];
    int i;
    (void)self;
    (void)arg;
    for (i = 1; i <= 3; i++) {
        tasync_delay(rt, 60u * 1000000u, NULL, NULL);
        snprintf(line, sizeof(line), "message %d\n", i);
        if (write(pipefd[1], line, strlen(line)) < 0) perror("write");
        printf("[%6.1f ms] producer: sent \"message %d\"\n", ms(), i);
    }
    close(pipefd[1]); /* end of stream */
}

static void consumer(tasync_coroutine_t *self, void *arg) {
    char buf[256];
    (void)self;
    (void)arg;
    for (;;) {
        ssize_t n = read(pipefd[0], buf, sizeof(buf) - 1);
        if (n > 0) {
            buf[n] = '\0';
            buf[strcspn(buf, "\n")] = '\0';
            printf("[%6.1f ms] consumer: got \"%s\"\n", ms(), buf);
            continue;
        }
        if (n == 0) break;
        if (errno != EAGAIN) {
            perror("read");
            break;
        }
        /* Only this coroutine waits; the others keep running. */
        if (tasync_await_fd(rt, pipefd[0], TASYNC_IO_READABLE, NULL, NULL, NULL) != 0) break;
    }
    printf("[%6.1f ms] consumer: pipe closed\n", ms());
    tasync_fd_forget(rt, pipefd[0]);
    close(pipefd[0]);
}

static void watchdog(tasync_coroutine_t *self, void *arg) {
    void *err = NULL;
    char why[128];
    (void)arg;
    (void)self;
    if (tasync_delay(rt, 10u * 1000000000u, NULL, &err) == -ECANCELED) {
        tasync_error_describe(rt, err, why, sizeof(why));
        printf("[%6.1f ms] watchdog: %s\n", ms(), why);
    }
    tasync_error_release(rt, err);
}

static tasync_coroutine_t *go(tasync_entry_cb fn, long arg) {
    tasync_spawn_options_t o;
    tasync_coroutine_t *co = NULL;
    memset(&o, 0, sizeof(o));
    o.size = sizeof(o);
    o.entry = fn;
    o.arg = (void *)arg;
    tasync_spawn(rt, &o, &co, NULL);
    return co;
}

int main(void) {
    tasync_runtime_options_t opts;
    tasync_backend_info_t info;
    tasync_coroutine_t *co[6], *dog;
    char err[512] = "";
    int i;
    memset(&opts, 0, sizeof(opts));
    opts.size = sizeof(opts);
    opts.errbuf = err;
    opts.errbuf_size = sizeof(err);
    if (tasync_runtime_create(&opts, &rt) != 0) {
        fprintf(stderr, "tasync-demo: %s\n", err);
        return 1;
    }
    memset(&info, 0, sizeof(info));
    info.size = sizeof(info);
    tasync_runtime_backend_info(rt, &info);
    printf("tasync %s, ABI %u.%u, backend %s (%s)\n", tasync_core_version_string(),
           TASYNC_ABI_MAJOR_OF(tasync_core_abi_version()), TASYNC_ABI_MINOR_OF(tasync_core_abi_version()), info.name,
           info.version);
    if (pipe2(pipefd, O_NONBLOCK | O_CLOEXEC) != 0) return 1;
    t0 = tasync_runtime_now(rt);

    co[0] = go(worker, 300);
    co[1] = go(worker, 200);
    co[2] = go(worker, 100);
    co[3] = go(producer, 0);
    co[4] = go(consumer, 0);
    dog = go(watchdog, 0);
    printf("[%6.1f ms] main: spawned 6 coroutines, awaiting the workers\n", ms());
    for (i = 0; i < 5; i++) {
        tasync_await(rt, tasync_coroutine_awaitable(co[i]), NULL, NULL, NULL);
        tasync_coroutine_release(co[i]);
    }
    tasync_coroutine_cancel(dog, NULL);
    tasync_coroutine_release(dog);
    tasync_runtime_run(rt);
    printf("[%6.1f ms] main: all done: 600 ms of sleeping took about 300 ms\n", ms());
    tasync_runtime_destroy(rt);
    return 0;
}
