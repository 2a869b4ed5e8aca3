// Child exits (docs/architecture.md, "Timers, signals and child exits"): the core watches them,
// the same on every backend, through a pidfd where the kernel has
// pidfd_open and through SIGCHLD otherwise; every test runs both ways (the
// SIGCHLD path is forced for the second). Only the pids being waited for
// are reaped, one by one: PHP's proc_open and pcntl reap their own.
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>
#include <thread>
#include <vector>

#include "tasync/core/signals.hpp"
#include "test_host.hpp"

using namespace tasync_test;

namespace {

enum class Path { Pidfd, Sigchld };

bool kernel_has_pidfd() {
#ifdef SYS_pidfd_open
    const int fd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
    if (fd < 0) return false;
    close(fd);
    return true;
#else
    return false;
#endif
}

pid_t fork_exit(int code, int delay_ms = 0) {
    const pid_t pid = fork();
    if (pid == 0) {
        if (delay_ms > 0) usleep(static_cast<useconds_t>(delay_ms) * 1000);
        _exit(code);
    }
    return pid;
}

pid_t fork_sleeper() {
    const pid_t pid = fork();
    if (pid == 0) {
        for (;;) pause();
    }
    return pid;
}

void wait_exited(pid_t pid) {
    siginfo_t si{};
    while (waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
}

// A child that exits with code once the parent lets it (closes the gate).
struct Gated {
    pid_t pid = -1;
    int gate = -1;
    explicit Gated(int code) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) return;
        pid = fork();
        if (pid == 0) {
            char c;
            close(p[1]);
            while (read(p[0], &c, 1) < 0 && errno == EINTR) {
            }
            _exit(code);
        }
        close(p[0]);
        gate = p[1];
    }
    void open() {
        if (gate >= 0) close(gate);
        gate = -1;
    }
    ~Gated() { open(); }
};

bool sigchld_is_default() {
    struct sigaction sa {};
    sigaction(SIGCHLD, nullptr, &sa);
    return !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL;
}

class Children : public RuntimeTest, public testing::WithParamInterface<Path> {
protected:
    void SetUp() override {
        if (GetParam() == Path::Pidfd && !kernel_has_pidfd()) GTEST_SKIP() << "the kernel has no pidfd_open";
        ASSERT_TRUE(sigchld_is_default()) << "the test process starts with SIGCHLD at SIG_DFL";
        tasync::detail::children_force_sigchld(GetParam() == Path::Sigchld);
        RuntimeTest::SetUp();
    }
    void TearDown() override {
        RuntimeTest::TearDown();
        tasync::detail::children_force_sigchld(false);
        EXPECT_TRUE(sigchld_is_default()) << "SIGCHLD's disposition is back after the last watch";
    }
    // What a wait on the SIGCHLD path shows and the pidfd path does not.
    void expect_path_in_use() {
        EXPECT_EQ(!sigchld_is_default(), GetParam() == Path::Sigchld)
            << "SIGCHLD is watched exactly on the SIGCHLD path";
    }
    int await_child(pid_t pid, int *status, int *sig, void **e = nullptr) {
        return tasync_await_child(rt, pid, nullptr, status, sig, e);
    }
};

std::string path_name(const testing::TestParamInfo<Path> &info) {
    return info.param == Path::Pidfd ? "Pidfd" : "Sigchld";
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Paths, Children, testing::Values(Path::Pidfd, Path::Sigchld), path_name);

TEST_P(Children, ExitStatusIsReportedAndTheChildReaped) {
    Gated child(7);
    const pid_t pid = child.pid;
    ASSERT_GT(pid, 0);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        expect_path_in_use();
        child.open();
    });
    int status = -1, sig = -1;
    EXPECT_EQ(await_child(pid, &status, &sig), 0);
    EXPECT_EQ(status, 7);
    EXPECT_EQ(sig, 0);
    EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1) << "the runtime reaped it";
    EXPECT_EQ(run(), 0);
}

TEST_P(Children, DeathBySignalReportsTheSignal) {
    const pid_t pid = fork_sleeper();
    ASSERT_GT(pid, 0);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        kill(pid, SIGTERM);
    });
    int status = -1, sig = -1;
    EXPECT_EQ(await_child(pid, &status, &sig), 0);
    EXPECT_EQ(sig, SIGTERM);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(run(), 0);
}

TEST_P(Children, AChildThatExitedBeforeTheWaitIsReported) {
    const pid_t pid = fork_exit(3);
    ASSERT_GT(pid, 0);
    wait_exited(pid);
    int status = -1, sig = -1;
    EXPECT_EQ(await_child(pid, &status, &sig), 0);
    EXPECT_EQ(status, 3);
    EXPECT_EQ(run(), 0);
}

TEST_P(Children, WhatIsNotAChildIsRefusedWithECHILD) {
    for (pid_t pid : {1, getpid()}) {
        void *e = nullptr;
        EXPECT_EQ(await_child(pid, nullptr, nullptr, &e), -ECHILD) << "pid " << pid;
        host.release(static_cast<Error *>(e));
    }
    for (pid_t pid : {0, -1}) {
        void *e = nullptr;
        EXPECT_EQ(await_child(pid, nullptr, nullptr, &e), -EINVAL) << "pid " << pid;
        host.release(static_cast<Error *>(e));
    }
    EXPECT_TRUE(sigchld_is_default()) << "nothing watched for a refused wait";
    EXPECT_EQ(run(), 0);
}

TEST_P(Children, AChildReapedBySomeoneElseReportsMinusOne) {
    const pid_t pid = fork_exit(5, 20);
    ASSERT_GT(pid, 0);
    int status = 0, sig = -1;
    go([&](tasync_coroutine_t *) { EXPECT_EQ(await_child(pid, &status, &sig), 0); });
    go([&](tasync_coroutine_t *) {
        // What pcntl_waitpid() or proc_close() do: a blocking waitpid that
        // keeps the runtime from running until the child is gone.
        EXPECT_EQ(waitpid(pid, nullptr, 0), pid);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(status, -1);
    EXPECT_EQ(sig, 0);
}

TEST_P(Children, OnlyThePidsWaitedForAreReaped) {
    const pid_t watched = fork_exit(1), other = fork_exit(2);
    ASSERT_GT(watched, 0);
    ASSERT_GT(other, 0);
    wait_exited(other);
    int status = -1;
    EXPECT_EQ(await_child(watched, &status, nullptr), 0);
    EXPECT_EQ(status, 1);
    EXPECT_EQ(run(), 0);
    int other_status = -1;
    EXPECT_EQ(waitpid(other, &other_status, WNOHANG), other) << "the runtime reaped a child nobody waited for";
    EXPECT_TRUE(WIFEXITED(other_status) && WEXITSTATUS(other_status) == 2);
}

TEST_P(Children, SeveralChildrenAndWaitersEachGetTheirOwnStatusOnce) {
    constexpr int kChildren = 5;
    pid_t pids[kChildren];
    int got[kChildren][2];
    for (int i = 0; i < kChildren; i++) {
        pids[i] = fork_exit(10 + i, (i * 7) % 20);
        ASSERT_GT(pids[i], 0);
        for (int w = 0; w < 2; w++) {
            got[i][w] = -100;
            go([&, i, w](tasync_coroutine_t *) { EXPECT_EQ(await_child(pids[i], &got[i][w], nullptr), 0); });
        }
    }
    EXPECT_EQ(run(), 0);
    for (int i = 0; i < kChildren; i++) {
        EXPECT_EQ(got[i][0], 10 + i) << "child " << i;
        EXPECT_EQ(got[i][1], 10 + i) << "child " << i << ", second waiter";
    }
}

TEST_P(Children, ACancelledWaitLeavesTheChildUnreaped) {
    const pid_t pid = fork_sleeper();
    ASSERT_GT(pid, 0);
    tasync_awaitable_t *t = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 5 * kMs, &t), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await_child(rt, pid, t, nullptr, nullptr, &e), TASYNC_EAWAIT_CANCELLED);
    host.release(static_cast<Error *>(e));
    tasync_awaitable_release(t);
    EXPECT_TRUE(sigchld_is_default()) << "the watch ended with the wait";
    kill(pid, SIGKILL);
    wait_exited(pid);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), pid) << "still there for whoever waits next";
}

TEST_P(Children, ChildrenOfRuntimesOnTwoThreads) {
    std::atomic<int> results[2] = {{-100}, {-100}};
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; i++) {
        threads.emplace_back([&, i] {
            TestHost h;
            tasync_runtime_options_t o{};
            o.size = sizeof(o);
            o.backend = backend_name();
            o.host = &h.table;
            o.host_data = &h;
            tasync_runtime_t *r = nullptr;
            if (tasync_runtime_create(&o, &r) != 0) return;
            const pid_t pid = fork_exit(20 + i, 10 + 10 * i);
            int status = -1;
            if (pid > 0 && tasync_await_child(r, pid, nullptr, &status, nullptr, nullptr) == 0) results[i] = status;
            tasync_runtime_run(r);
            tasync_runtime_destroy(r);
        });
    }
    for (std::thread &t : threads) t.join();
    EXPECT_EQ(results[0].load(), 20);
    EXPECT_EQ(results[1].load(), 21);
    EXPECT_EQ(run(), 0);
}

TEST_P(Children, BackendInfoSaysWhetherPidfdsAreUsed) {
    tasync_backend_info_t info{};
    info.size = sizeof(info);
    ASSERT_EQ(tasync_runtime_backend_info(rt, &info), 0);
    EXPECT_EQ((info.capabilities & TASYNC_CAP_PIDFD) != 0, GetParam() == Path::Pidfd);
    EXPECT_EQ(run(), 0);
}
