// Issue 21: running out of a resource fails the one operation that needed
// it, with an error, and the program goes on; it never ends the process.
// Each case runs in a forked child whose limits it lowers.
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_host.hpp"

using namespace tasync_test;

namespace {

// The process's mapped size (/proc/self/statm's first field), in bytes.
std::size_t mapped_bytes() {
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f != nullptr) {
        if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
        std::fclose(f);
    }
    return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// The soft limit only, so that it can be lifted again.
bool limit_address_space(rlim_t bytes) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0) return false;
    rl.rlim_cur = bytes;
    return setrlimit(RLIMIT_AS, &rl) == 0;
}

#define CHILD_CHECK(cond)                                                             \
    do {                                                                              \
        if (!(cond)) {                                                                \
            std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #cond);   \
            _exit(1);                                                                 \
        }                                                                             \
    } while (0)

}  // namespace

// Under `ulimit -v`, spawning takes the stack at once: the spawn that finds
// no room fails with a SystemError saying so, the coroutines already
// spawned run to their end, the runtime's host keeps the reserve it asked
// for (a malloc of it succeeds), and once stacks are back a spawn works.
TEST(Exhaustion, AnAddressSpaceLimitFailsTheSpawnThatFindsNoStackAndTheRunGoesOn) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const std::size_t reserve = 32u << 20;
        CHILD_CHECK(limit_address_space(mapped_bytes() + (96u << 20)));
        TestHost host;
        tasync_runtime_options_t o{};
        o.size = sizeof(o);
        o.backend = std::getenv("TASYNC_TEST_BACKEND");
        o.host = &host.table;
        o.host_data = &host;
        o.address_space_reserve = reserve;
        tasync_runtime_t *rt = nullptr;
        CHILD_CHECK(tasync_runtime_create(&o, &rt) == 0);
        tasync_awaitable_t *gate = nullptr;
        CHILD_CHECK(tasync_future_create(rt, &gate) == 0);
        struct Arg {
            tasync_runtime_t *rt;
            tasync_awaitable_t *gate;
            int *ended;
        };
        int ended = 0, spawned = 0, rc = 0;
        void *error = nullptr;
        Arg arg{rt, gate, &ended};
        tasync_spawn_options_t so{};
        so.size = sizeof(so);
        so.entry = [](tasync_coroutine_t *, void *p) {
            auto *a = static_cast<Arg *>(p);
            void *v = nullptr, *e = nullptr;
            if (tasync_await(a->rt, a->gate, nullptr, &v, &e) == 0) ++*a->ended;
            tasync_value_release(a->rt, v);
            tasync_error_release(a->rt, e);
        };
        so.arg = &arg;
        for (int i = 0; i < 100000; ++i) {
            rc = tasync_spawn(rt, &so, nullptr, &error);
            if (rc != 0) break;
            ++spawned;
            // Each one starts and waits, holding its stack.
            CHILD_CHECK(tasync_yield(rt, nullptr) == 0);
        }
        CHILD_CHECK(rc == -ENOMEM);
        CHILD_CHECK(spawned > 20);
        CHILD_CHECK(error != nullptr && static_cast<Error *>(error)->kind == TASYNC_ERROR_SYSTEM);
        CHILD_CHECK(static_cast<Error *>(error)->message.find("cannot allocate a coroutine stack") != std::string::npos);
        tasync_error_release(rt, error);
        // The reserve is still there for the host.
        void *room = std::malloc(reserve / 2);
        CHILD_CHECK(room != nullptr);
        std::free(room);
        void *one = host.value(1);
        CHILD_CHECK(tasync_future_resolve(gate, one) == 0);
        host.release(static_cast<Value *>(one));
        CHILD_CHECK(tasync_runtime_run(rt) == 0);
        CHILD_CHECK(ended == spawned);
        CHILD_CHECK(tasync_spawn(rt, &so, nullptr, nullptr) == 0);
        CHILD_CHECK(tasync_runtime_run(rt) == 0);
        CHILD_CHECK(ended == spawned + 1);
        tasync_awaitable_release(gate);
        tasync_runtime_destroy(rt);
        CHILD_CHECK(host.live_values == 0 && host.live_errors == 0);
        _exit(0);
    }
    EXPECT_TRUE(child_exits_cleanly(pid, 60, "the child under an address-space limit"));
}

// No thread can be started for offloaded work (here: no room for a
// thread's stack) and none runs: the work runs on the runtime's thread, as
// the same call does without a runtime, with one warning; the process goes
// on.
TEST(Exhaustion, NoThreadForOffloadedWorkRunsItOnTheRuntimesThreadNotAbortsTheProcess) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        TestHost host;
        tasync_runtime_options_t o{};
        o.size = sizeof(o);
        o.backend = std::getenv("TASYNC_TEST_BACKEND");
        o.host = &host.table;
        o.host_data = &host;
        tasync_runtime_t *rt = nullptr;
        CHILD_CHECK(tasync_runtime_create(&o, &rt) == 0);
        tasync_backend_info_t info{};
        info.size = sizeof(info);
        CHILD_CHECK(tasync_runtime_backend_info(rt, &info) == 0);
        struct Arg {
            tasync_runtime_t *rt;
            int rc;
            int ran;
            pthread_t runner;
        } arg{rt, 1, 0, {}};
        tasync_spawn_options_t so{};
        so.size = sizeof(so);
        so.entry = [](tasync_coroutine_t *, void *p) {
            auto *a = static_cast<Arg *>(p);
            // A thread's stack (8 MiB by default) no longer fits.
            CHILD_CHECK(limit_address_space(mapped_bytes() + (2u << 20)));
            void *e = nullptr;
            a->rc = tasync_offload(a->rt, [](void *p) {
                auto *a = static_cast<Arg *>(p);
                ++a->ran;
                a->runner = pthread_self();
            }, a, nullptr, &e);
            tasync_error_release(a->rt, e);
            CHILD_CHECK(limit_address_space(RLIM_INFINITY));
        };
        so.arg = &arg;
        CHILD_CHECK(tasync_spawn(rt, &so, nullptr, nullptr) == 0);
        CHILD_CHECK(tasync_runtime_run(rt) == 0);
        if (arg.rc != 0 || arg.ran != 1 || !pthread_equal(arg.runner, pthread_self()) || host.warnings.size() != 1 ||
            host.warnings[0].find("no thread could be started for offloaded work") == std::string::npos) {
            std::fprintf(stderr, "offload: rc %d, ran %d, %zu warnings (backend %s)\n", arg.rc, arg.ran,
                         host.warnings.size(), info.name);
            _exit(1);
        }
        tasync_runtime_destroy(rt);
        _exit(0);
    }
    EXPECT_TRUE(child_exits_cleanly(pid, 30, "the child without room for a thread"));
}
