// tasync_await_child_exit (ABI 1.2): waiting for a child's exit without
// reaping it, through a pidfd and through the waitid polling used where the
// kernel has none. Every test runs both ways on the suite's backend.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "tasync/core/child_exit.hpp"
#include "test_host.hpp"

using namespace tasync_test;

namespace {

// A child that exits with code after sleeping ms milliseconds (ms < 0:
// waits for a signal forever).
pid_t start_child(int ms, int code) {
    pid_t pid = fork();
    if (pid == 0) {
        if (ms < 0) {
            for (;;) pause();
        }
        usleep(static_cast<useconds_t>(ms) * 1000);
        _exit(code);
    }
    return pid;
}

// The child's status when it is a zombie now, reaping it; -1 otherwise.
int reap_now(pid_t pid) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    return r == pid ? status : -1;
}

}  // namespace

class ChildExit : public RuntimeTest, public ::testing::WithParamInterface<bool> {
protected:
    void SetUp() override {
        tasync::detail::child_exit_force_polling(GetParam());
        RuntimeTest::SetUp();
    }
    void TearDown() override {
        RuntimeTest::TearDown();
        tasync::detail::child_exit_force_polling(false);
    }
};

INSTANTIATE_TEST_SUITE_P(Ways, ChildExit, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &i) { return i.param ? "Polling" : "Pidfd"; });

TEST_P(ChildExit, ReturnsOnceTheChildExitedAndLeavesItToTheCaller) {
    pid_t pid = start_child(20, 7);
    ASSERT_GT(pid, 0);
    EXPECT_EQ(tasync_await_child_exit(rt, pid, nullptr, nullptr), 0);
    int status = reap_now(pid);
    ASSERT_NE(status, -1) << "the child was reaped by the runtime or has not exited";
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 7);
    EXPECT_EQ(run(), 0);
}

TEST_P(ChildExit, AZombieReturnsAtOnce) {
    pid_t pid = start_child(0, 3);
    ASSERT_GT(pid, 0);
    siginfo_t si{};
    ASSERT_EQ(waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOWAIT), 0);
    uint64_t before = tasync_runtime_now(rt);
    EXPECT_EQ(tasync_await_child_exit(rt, pid, nullptr, nullptr), 0);
    EXPECT_LT(tasync_runtime_now(rt) - before, 500 * kMs);
    EXPECT_NE(reap_now(pid), -1);
    EXPECT_EQ(run(), 0);
}

TEST_P(ChildExit, OtherCoroutinesRunWhileItWaits) {
    pid_t pid = start_child(50, 0);
    ASSERT_GT(pid, 0);
    int ticks = 0;
    bool waiting = true;
    go([&](tasync_coroutine_t *) {
        while (waiting) {
            tasync_delay(rt, 2 * kMs, nullptr, nullptr);
            ++ticks;
        }
    });
    EXPECT_EQ(tasync_await_child_exit(rt, pid, nullptr, nullptr), 0);
    waiting = false;
    EXPECT_GT(ticks, 3);
    EXPECT_NE(reap_now(pid), -1);
    EXPECT_EQ(run(), 0);
}

TEST_P(ChildExit, SeveralCoroutinesWaitForTheSameChild) {
    pid_t pid = start_child(20, 5);
    ASSERT_GT(pid, 0);
    int woke = 0;
    for (int i = 0; i < 3; i++) {
        go([&](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_await_child_exit(rt, pid, nullptr, nullptr), 0);
            ++woke;
        });
    }
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(woke, 3);
    int status = reap_now(pid);
    ASSERT_NE(status, -1);
    EXPECT_EQ(WEXITSTATUS(status), 5);
}

TEST_P(ChildExit, ACancellationAwaitableEndsTheWaitAndTheChildRunsOn) {
    pid_t pid = start_child(-1, 0);
    ASSERT_GT(pid, 0);
    tasync_awaitable_t *timeout = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 20 * kMs, &timeout), 0);
    void *err = nullptr;
    EXPECT_EQ(tasync_await_child_exit(rt, pid, timeout, &err), TASYNC_EAWAIT_CANCELLED);
    EXPECT_EQ(kind_of(err), TASYNC_ERROR_AWAIT_CANCELLED);
    host.release(static_cast<Error *>(err));
    tasync_awaitable_release(timeout);
    EXPECT_EQ(reap_now(pid), -1) << "the child still runs";
    kill(pid, SIGKILL);
    EXPECT_EQ(tasync_await_child_exit(rt, pid, nullptr, nullptr), 0);
    int status = reap_now(pid);
    ASSERT_NE(status, -1);
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(run(), 0);
}

TEST_P(ChildExit, CancellingTheCoroutineEndsTheWait) {
    pid_t pid = start_child(-1, 0);
    ASSERT_GT(pid, 0);
    int rc = 1;
    tasync_coroutine_t *waiter = spawn([&](tasync_coroutine_t *) {
        void *err = nullptr;
        rc = tasync_await_child_exit(rt, pid, nullptr, &err);
        EXPECT_EQ(kind_of(err), TASYNC_ERROR_CANCELLATION);
        host.release(static_cast<Error *>(err));
    });
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 10 * kMs, nullptr, nullptr);
        tasync_coroutine_cancel(waiter, nullptr);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, -ECANCELED);
    tasync_coroutine_release(waiter);
    kill(pid, SIGKILL);
    EXPECT_EQ(waitpid(pid, nullptr, 0), pid);
}

TEST_P(ChildExit, WhatIsNotAChildIsRefused) {
    void *err = nullptr;
    EXPECT_EQ(tasync_await_child_exit(rt, 1, nullptr, &err), -ECHILD);
    EXPECT_EQ(kind_of(err), TASYNC_ERROR_SYSTEM);
    host.release(static_cast<Error *>(err));
    EXPECT_EQ(tasync_await_child_exit(rt, 0, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(tasync_await_child_exit(rt, -5, nullptr, nullptr), -EINVAL);
    // A child that was reaped already is no longer one.
    pid_t pid = start_child(0, 0);
    ASSERT_EQ(waitpid(pid, nullptr, 0), pid);
    EXPECT_EQ(tasync_await_child_exit(rt, pid, nullptr, nullptr), -ECHILD);
    EXPECT_EQ(run(), 0);
}

TEST_P(ChildExit, TheWaitSaysWhichChildItIsFor) {
    if (GetParam()) GTEST_SKIP() << "the polling fallback waits in a delay";
    pid_t pid = start_child(-1, 0);
    ASSERT_GT(pid, 0);
    tasync_coroutine_t *waiter = spawn([&](tasync_coroutine_t *) {
        tasync_await_child_exit(rt, pid, nullptr, nullptr);
    });
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 5 * kMs, nullptr, nullptr);
        tasync_wait_info_t info{};
        info.size = sizeof(info);
        EXPECT_EQ(tasync_coroutine_wait_info(waiter, &info), 0);
        EXPECT_EQ(info.kind, static_cast<uint32_t>(TASYNC_WAIT_CHILD));
        EXPECT_EQ(info.pid, pid);
        kill(pid, SIGTERM);
    });
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(waiter);
    int status = reap_now(pid);
    ASSERT_NE(status, -1);
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST_P(ChildExit, AThreadWithoutARuntimeIsRefused) {
    int rc = 0;
    std::thread th([&] { rc = tasync_await_child_exit(nullptr, 1, nullptr, nullptr); });
    th.join();
    EXPECT_EQ(rc, TASYNC_ENOT_IN_COROUTINE);
    EXPECT_EQ(run(), 0);
}
