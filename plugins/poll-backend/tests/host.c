/* A host built against the installed core alone: loads the backend given by
 * path, runs coroutines with delays and a pipe wait on it. */
#define _GNU_SOURCE
#include <tasync/tasync.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static tasync_runtime_t *rt;
static int fds[2];
static int done;

static void sleeper(tasync_coroutine_t *self, void *arg) {
    (void)self;
    tasync_delay(rt, (uint64_t)(long)arg * 1000000u, NULL, NULL);
    done++;
}

static void reader(tasync_coroutine_t *self, void *arg) {
    char c;
    (void)self;
    (void)arg;
    if (tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, NULL, NULL, NULL) == 0 && read(fds[0], &c, 1) == 1) done++;
}

int main(int argc, char **argv) {
    tasync_runtime_options_t o = {0};
    tasync_spawn_options_t s = {0};
    tasync_backend_info_t info = {0};
    char err[512] = {0};
    long i;
    o.size = sizeof(o);
    o.backend = argc > 1 ? argv[1] : NULL;
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    if (tasync_runtime_create(&o, &rt) != 0) {
        fprintf(stderr, "FAIL: %s\n", err);
        return 1;
    }
    info.size = sizeof(info);
    tasync_runtime_backend_info(rt, &info);
    if (pipe2(fds, O_NONBLOCK) != 0) return 1;
    s.size = sizeof(s);
    for (i = 1; i <= 3; i++) {
        s.entry = sleeper;
        s.arg = (void *)i;
        tasync_spawn(rt, &s, NULL, NULL);
    }
    s.entry = reader;
    tasync_spawn(rt, &s, NULL, NULL);
    tasync_delay(rt, 2000000u, NULL, NULL);
    if (write(fds[1], "x", 1) != 1) return 1;
    tasync_runtime_run(rt);
    tasync_fd_forget(rt, fds[0]);
    printf("backend %s (%s): %d of 4 coroutines finished\n", info.name, info.version, done);
    tasync_runtime_destroy(rt);
    return done == 4 ? 0 : 1;
}
