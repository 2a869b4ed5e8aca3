// Loading backends: every loader error gives its message and no crash;
// tables of older and newer minor versions load.
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_host.hpp"

using namespace tasync_test;

namespace {

std::string fake_path(const char *kind) {
    const char *dir = std::getenv("TASYNC_FAKE_BACKEND_DIR");
    return std::string(dir != nullptr ? dir : ".") + "/fake-backend-" + kind + ".so";
}

struct Attempt {
    int rc = 0;
    std::string err;
    tasync_runtime_t *rt = nullptr;
    std::vector<std::string> warnings;
};

Attempt try_load(const std::string &backend, uint32_t flags = 0, const char *dir = nullptr,
                 uint32_t thread_pool_size = 0) {
    TestHost host;
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.thread_pool_size = thread_pool_size;
    o.backend = backend.c_str();
    o.backend_dir = dir;
    o.flags = flags;
    o.host = &host.table;
    o.host_data = &host;
    char err[1024] = {0};
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    Attempt a;
    a.rc = tasync_runtime_create(&o, &a.rt);
    a.err = err;
    a.warnings = host.warnings;
    if (a.rt != nullptr) {
        tasync_runtime_destroy(a.rt);
        a.rt = nullptr;
    }
    return a;
}

}  // namespace

TEST(Loader, MissingFileByPath) {
    Attempt a = try_load("/nonexistent/dir/tasync-backend-nope.so");
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_NOT_FOUND);
    EXPECT_NE(a.err.find("/nonexistent/dir/tasync-backend-nope.so"), std::string::npos) << a.err;
    EXPECT_NE(a.err.find("No such file"), std::string::npos) << a.err;
}

TEST(Loader, UnknownNameSaysWhereItLooked) {
    Attempt a = try_load("nosuchreactor", 0, "/tmp");
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_NOT_FOUND);
    EXPECT_NE(a.err.find("/tmp/tasync-backend-nosuchreactor.so"), std::string::npos) << a.err;
}

TEST(Loader, NotASharedObject) {
    Attempt a = try_load("/etc/hostname");
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_DLOPEN);
    EXPECT_NE(a.err.find("cannot load"), std::string::npos) << a.err;
}

TEST(Loader, MissingEntrySymbol) {
    Attempt a = try_load(fake_path("no-entry"));
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_NO_ENTRY);
    EXPECT_NE(a.err.find("tasync_backend_entry"), std::string::npos) << a.err;
}

TEST(Loader, EntryReturnsNoTable) {
    Attempt a = try_load(fake_path("null-table"));
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_NULL_TABLE);
    EXPECT_NE(a.err.find("returned no table"), std::string::npos) << a.err;
}

TEST(Loader, WrongAbiMajor) {
    Attempt a = try_load(fake_path("wrong-major"));
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_ABI_MAJOR);
    EXPECT_NE(a.err.find("built for ABI 2.0"), std::string::npos) << a.err;
}

TEST(Loader, TableTooSmall) {
    Attempt a = try_load(fake_path("too-small"));
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_TABLE_SMALL);
    EXPECT_NE(a.err.find("table is"), std::string::npos) << a.err;
}

TEST(Loader, MissingRequiredEntry) {
    Attempt a = try_load(fake_path("missing-op"));
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_MISSING_OP);
    EXPECT_NE(a.err.find("io_start"), std::string::npos) << a.err;
}

TEST(Loader, InitFailureNamesTheReason) {
    Attempt a = try_load(fake_path("init-fails"));
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_INIT);
    EXPECT_NE(a.err.find("failed to initialise"), std::string::npos) << a.err;
    EXPECT_NE(a.err.find("simulated refusal"), std::string::npos) << a.err;
}

// Issue 22: the host's thread pool size reaches the backend's loop (uv sizes
// libuv's pool from it), not the process environment; 0 when not asked.
TEST(Loader, TheThreadPoolSizeReachesTheLoopOptions) {
    Attempt a = try_load(fake_path("options-probe"), 0, nullptr, 7);
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_INIT);
    EXPECT_NE(a.err.find("options of " + std::to_string(sizeof(tasync_loop_options_t)) + " bytes"), std::string::npos)
        << a.err;
    EXPECT_NE(a.err.find("thread_pool_size=7"), std::string::npos) << a.err;
    Attempt d = try_load(fake_path("options-probe"));
    EXPECT_NE(d.err.find("thread_pool_size=0"), std::string::npos) << d.err;
}

TEST(Loader, FallbackToDefaultWarnsWithTheReason) {
    Attempt a = try_load(fake_path("init-fails"), TASYNC_RUNTIME_FALLBACK_DEFAULT);
    EXPECT_EQ(a.rc, 0) << a.err;
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_NE(a.warnings[0].find("simulated refusal"), std::string::npos) << a.warnings[0];
    EXPECT_NE(a.warnings[0].find("default backend 'uv'"), std::string::npos) << a.warnings[0];
}

TEST(Loader, FallbackForAMissingBackend) {
    Attempt a = try_load("/nonexistent/x.so", TASYNC_RUNTIME_FALLBACK_DEFAULT);
    EXPECT_EQ(a.rc, 0) << a.err;
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_NE(a.warnings[0].find("/nonexistent/x.so"), std::string::npos);
}

TEST(Loader, ByNameInTheBackendDirectory) {
    Attempt a = try_load("uv");
    EXPECT_EQ(a.rc, 0) << a.err;
}

// Issue 21: a backend that someone other than its owner could replace is
// refused before it is mapped (its constructor never runs), whether it is
// named by path, by name in a directory, or through a symbolic link; the
// fallback warns with the reason. Once safe, the same file loads and its
// constructor runs, which shows the probe would have told.
TEST(Loader, ABackendOthersMayReplaceIsRefusedBeforeItsCodeRuns) {
    char tmpl[] = "/tmp/tasync-unsafe-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, so = dir + "/tasync-backend-probe.so", mark = dir + "/mark";
    {
        std::ifstream in(fake_path("ctor-probe"), std::ios::binary);
        std::ofstream out(so, std::ios::binary);
        ASSERT_TRUE(in.good()) << fake_path("ctor-probe");
        out << in.rdbuf();
    }
    auto constructor_ran = [&] { return access(mark.c_str(), F_OK) == 0; };
    ASSERT_EQ(setenv("TASYNC_CTOR_PROBE", mark.c_str(), 1), 0);

    ASSERT_EQ(chmod(so.c_str(), 0755), 0);
    ASSERT_EQ(chmod(dir.c_str(), 0777), 0);
    Attempt a = try_load(so);
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_UNSAFE);
    EXPECT_NE(a.err.find("the directory " + dir + " is writable by others than its owner (mode 777)"), std::string::npos)
        << a.err;
    EXPECT_FALSE(constructor_ran());

    ASSERT_EQ(chmod(dir.c_str(), 0755), 0);
    ASSERT_EQ(chmod(so.c_str(), 0666), 0);
    a = try_load("probe", 0, dir.c_str());
    EXPECT_EQ(a.rc, TASYNC_EBACKEND_UNSAFE);
    EXPECT_NE(a.err.find("the file " + so + " is writable by others"), std::string::npos) << a.err;
    EXPECT_FALSE(constructor_ran());

    const std::string link = dir + "/safe/tasync-backend-link.so";
    ASSERT_EQ(mkdir((dir + "/safe").c_str(), 0755), 0);
    ASSERT_EQ(symlink(so.c_str(), link.c_str()), 0);
    a = try_load(link, TASYNC_RUNTIME_FALLBACK_DEFAULT);
    EXPECT_EQ(a.rc, 0) << a.err;
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_NE(a.warnings[0].find("refused to load"), std::string::npos) << a.warnings[0];
    EXPECT_NE(a.warnings[0].find(so + " is writable by others"), std::string::npos) << a.warnings[0];
    EXPECT_FALSE(constructor_ran());

    ASSERT_EQ(chmod(so.c_str(), 0644), 0);
    a = try_load(link);
    EXPECT_EQ(a.rc, 0) << a.err;
    EXPECT_TRUE(constructor_ran());

    unsetenv("TASYNC_CTOR_PROBE");
    unlink(link.c_str());
    rmdir((dir + "/safe").c_str());
    unlink(mark.c_str());
    unlink(so.c_str());
    rmdir(dir.c_str());
}

// A backend of an older minor version: its table is smaller, the optional
// entries beyond it are absent even though its capability bits claim them.
class OlderMinor : public RuntimeTest {
protected:
    void SetUp() override { create(fake_path("older-minor").c_str()); }
};

TEST_F(OlderMinor, LoadsAndTreatsMissingOptionalEntriesAsAbsent) {
    tasync_backend_info_t info{};
    info.size = sizeof(info);
    ASSERT_EQ(tasync_runtime_backend_info(rt, &info), 0);
    EXPECT_STREQ(info.name, "fake");
    EXPECT_EQ(info.capabilities & TASYNC_CAP_OFFLOAD, 0u);
    EXPECT_EQ(info.capabilities & TASYNC_CAP_COMPLETION, 0u);
    // Offload still works, through the core's own thread pool.
    int x = 0;
    EXPECT_EQ(tasync_offload(rt, [](void *p) { *static_cast<int *>(p) = 1; }, &x, nullptr, nullptr), 0);
    EXPECT_EQ(x, 1);
    EXPECT_EQ(tasync_delay(rt, 1 * kMs, nullptr, nullptr), 0);
    EXPECT_EQ(run(), 0);
}

class NewerMinor : public RuntimeTest {
protected:
    void SetUp() override { create(fake_path("newer-minor").c_str()); }
};

TEST_F(NewerMinor, LoadsAndIgnoresTheTailItDoesNotKnow) {
    tasync_backend_info_t info{};
    info.size = sizeof(info);
    ASSERT_EQ(tasync_runtime_backend_info(rt, &info), 0);
    EXPECT_EQ(TASYNC_ABI_MINOR_OF(info.abi_version), TASYNC_ABI_VERSION_MINOR + 5u);
    EXPECT_EQ(tasync_delay(rt, 1 * kMs, nullptr, nullptr), 0);
    EXPECT_EQ(run(), 0);
}

// The last external reference dropped by another thread just as the
// runtime decides to block: the run still ends. It used to sleep forever
// when the unref landed between the liveness check and the store of
// `polling` (CI hung once in Io.ManyPostsUnderLoadAllArrive under ASan).
// This backend's clock, read inside that window, takes 100 us, so that the
// unrefs spread below land in it often.
class SlowClock : public RuntimeTest {
protected:
    void SetUp() override { create(fake_path("slow-clock").c_str()); }
};

TEST_F(SlowClock, UnrefFromAnotherThreadAsTheRuntimeGoesToSleepEndsTheRun) {
    std::mutex mu;
    std::condition_variable cv;
    int rescued = 0;
    for (int i = 0; i < 300; ++i) {
        bool returned = false;
        tasync_runtime_ref(rt);
        std::thread th([&, i] {
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(i % 150);
            while (std::chrono::steady_clock::now() < until) {
            }
            tasync_runtime_unref(rt);
            // A run that sleeps through the unref is woken by a post after
            // two seconds, so that the bug fails the test instead of hanging it.
            std::unique_lock<std::mutex> lock(mu);
            if (!cv.wait_for(lock, std::chrono::seconds(2), [&] { return returned; })) {
                ++rescued;
                tasync_runtime_post(rt, [](void *) {}, nullptr);
            }
        });
        EXPECT_EQ(run(), 0);
        {
            std::lock_guard<std::mutex> lock(mu);
            returned = true;
        }
        cv.notify_all();
        th.join();
        if (rescued > 0) break;
    }
    EXPECT_EQ(rescued, 0) << "run() slept through the last unref";
}

// A thread posts as its last act; the runtime runs the callback before the
// thread's wakeup reaches the loop (a timer woke it), ends its run and is
// destroyed. Destruction waits until the poster has left post(): the loop
// it is about to wake must still exist. Under ASan, the use after free this
// used to be is reported; this backend's wakeup waits 20 ms before it
// touches the loop, so that the runtime ends first.
class SlowWakeup : public RuntimeTest {
protected:
    void SetUp() override { create(fake_path("slow-wakeup").c_str()); }

    // A coroutine polls with a 1 ms timeout until the callback that the
    // returned thread posts (while the runtime polls, so that post() calls
    // the wakeup) has run; the run then ends, the poster still inside post().
    std::thread run_until_posted(std::atomic<bool> &ran) {
        go([this, &ran](tasync_coroutine_t *) {
            while (!ran.load()) tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        });
        std::thread th([this, &ran] {
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
            tasync_runtime_post(rt, [](void *p) { static_cast<std::atomic<bool> *>(p)->store(true); }, &ran);
        });
        EXPECT_EQ(run(), 0);
        return th;
    }
};

TEST_F(SlowWakeup, DestructionWaitsForAThreadStillInsidePost) {
    std::atomic<bool> ran{false};
    std::thread th = run_until_posted(ran);
    EXPECT_TRUE(ran.load());
    tasync_runtime_destroy(rt);
    rt = nullptr;
    th.join();
}

// Forked while another thread is inside post(): that thread does not exist
// in the child, so the child's destruction must not wait for it to leave
// (it hung there once in CI, with a pool worker posting its completion).
TEST_F(SlowWakeup, AChildForkedWhileAThreadIsInsidePostDestroysItsRuntime) {
    std::atomic<bool> ran{false};
    std::thread th = run_until_posted(ran);
    // The poster is still inside post() for most of 20 ms.
    pid_t pid = fork();
    if (pid == 0) {
        tasync_runtime_destroy(rt);
        _exit(0);
    }
    th.join();
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(child_exits_cleanly(pid, 5, "the child's tasync_runtime_destroy"));
}

// A backend whose loop_run rounds every bounded wait up to a whole second
// (fake_backend.c, FAKE_COARSE_WAIT: epoll's millisecond, a thousand times
// coarser) and does not claim TASYNC_CAP_PRECISE_TIMEOUT. The runtime ends
// its waits at the deadline with a timerfd of its own (deadline_fd.cpp):
// delays of a few milliseconds end long before the backend's second.
class CoarseWait : public RuntimeTest {
protected:
    void SetUp() override { create(fake_path("coarse-wait").c_str()); }

    // Runs the coroutines started so far; returns how long that took.
    std::chrono::milliseconds timed_run() {
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_EQ(run(), 0);
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    }
};

TEST_F(CoarseWait, ADelayEndsAtItsDeadlineNotAtTheBackendsUnit) {
    int done = 0;
    go([this, &done](tasync_coroutine_t *) {
        for (int i = 0; i < 5; ++i) EXPECT_EQ(tasync_delay(rt, 2 * kMs, nullptr, nullptr), 0);
        ++done;
    });
    const auto took = timed_run();
    EXPECT_EQ(done, 1);
    // Five waits of the backend's unit would take 5 s.
    EXPECT_LT(took.count(), 900) << "the waits ended at the backend's second, not at the deadlines";
}

TEST_F(CoarseWait, DelaysOfManyLengthsEndInTheirOrder) {
    std::vector<int> order;
    for (int i = 10; i >= 1; --i) {
        go([this, i, &order](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_delay(rt, static_cast<std::uint64_t>(i) * 3 * kMs, nullptr, nullptr), 0);
            order.push_back(i);
        });
    }
    const auto took = timed_run();
    EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_LT(took.count(), 900);
}

// The timerfd's timer is shared with the parent after fork(): the child
// makes its own, and neither process's deadlines move the other's.
TEST_F(CoarseWait, AForkedChildWaitsWithItsOwnTimer) {
    go([this](tasync_coroutine_t *) { EXPECT_EQ(tasync_delay(rt, 1 * kMs, nullptr, nullptr), 0); });
    EXPECT_EQ(run(), 0);  // the fd exists now
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        int ok = 0;
        go([this, &ok](tasync_coroutine_t *) {
            for (int i = 0; i < 5; ++i) ok += tasync_delay(rt, 2 * kMs, nullptr, nullptr) == 0;
        });
        const auto took = timed_run();
        _exit(ok == 5 && took.count() < 900 ? 0 : 1);
    }
    // Meanwhile the parent waits too: a child that set the parent's timer
    // (or read its expiry) would cut these waits short or stretch them.
    const auto t0 = std::chrono::steady_clock::now();
    int ok = 0;
    go([this, &ok](tasync_coroutine_t *) {
        for (int i = 0; i < 5; ++i) ok += tasync_delay(rt, 7 * kMs, nullptr, nullptr) == 0;
    });
    EXPECT_EQ(run(), 0);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    EXPECT_EQ(ok, 5);
    EXPECT_GE(took.count(), 35);
    EXPECT_LT(took.count(), 900);
    EXPECT_TRUE(child_exits_cleanly(pid, 10, "the forked child's delays"));
}

// Issue 4: when the kernel refuses io_uring, loading the uring backend fails
// with a message naming the reason, and the host can fall back to uv. The
// refusal is simulated in a child process with a seccomp filter that makes
// io_uring_setup fail with EPERM, as a container runtime's profile does.
TEST(UringRefused, LoadingFailsNamingTheReasonAndFallsBackToUv) {
    const char *dir = std::getenv("TASYNC_BACKEND_DIR");
    std::string so = std::string(dir != nullptr ? dir : ".") + "/tasync-backend-uring.so";
    if (access(so.c_str(), R_OK) != 0) GTEST_SKIP() << "the uring backend is not built";
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        struct sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = {static_cast<unsigned short>(sizeof(filter) / sizeof(filter[0])), filter};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
            std::fprintf(stderr, "cannot install the seccomp filter\n");
            _exit(2);
        }
        Attempt refused = try_load("uring");
        if (refused.rc != TASYNC_EBACKEND_INIT ||
            refused.err.find("io_uring_queue_init failed: Operation not permitted") == std::string::npos ||
            refused.err.find("seccomp") == std::string::npos) {
            std::fprintf(stderr, "without fallback: rc %d, \"%s\"\n", refused.rc, refused.err.c_str());
            _exit(1);
        }
        Attempt fallback = try_load("uring", TASYNC_RUNTIME_FALLBACK_DEFAULT);
        if (fallback.rc != 0 || fallback.warnings.size() != 1 ||
            fallback.warnings[0].find("Operation not permitted") == std::string::npos ||
            fallback.warnings[0].find("using the default backend 'uv' instead") == std::string::npos) {
            std::fprintf(stderr, "with fallback: rc %d, %zu warnings\n", fallback.rc, fallback.warnings.size());
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "see the child's message above";
}
