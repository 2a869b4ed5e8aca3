// Child watches: exit status, death by signal, children that exited before
// the watch, -ECHILD for what is not our child, a child reaped by someone
// else, and closed watches (which must neither call back nor reap).
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

struct ChildWatch {
    Handle h;
    int calls = 0;
    int pid = 0, exit_status = -2, term_signal = -2;
    bool close_in_callback = false;

    int open(tasync_loop_t *loop, int child) { return B().child_open(loop, child, &ChildWatch::fired, this, h.out()); }
    static void fired(tasync_handle_t *, void *d, int pid, int exit_status, int term_signal) {
        in_callback();
        auto *w = static_cast<ChildWatch *>(d);
        w->calls++;
        w->pid = pid;
        w->exit_status = exit_status;
        w->term_signal = term_signal;
        if (w->close_in_callback) w->h.close();
    }
};

// A child that exits with code after delay_ns.
pid_t spawn_exit(int code, std::int64_t delay_ns = 0) {
    const pid_t pid = fork();
    if (pid == 0) {
        sleep_ns(delay_ns);
        _exit(code);
    }
    return pid;
}

// A child that exits with code once the returned fd is closed.
pid_t spawn_waiting(int code, Fd *release) {
    FdPair p = make_pipe();
    const pid_t pid = fork();
    if (pid == 0) {
        char c;
        close(p.b.release());
        while (read(p.a, &c, 1) < 0 && errno == EINTR) {
        }
        _exit(code);
    }
    *release = std::move(p.b);
    return pid;
}

// Waits (blocking) until pid has exited, without reaping it.
void wait_exited(pid_t pid) {
    siginfo_t si{};
    while (waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
}

using Children = LoopTest;

}  // namespace

TEST_F(Children, NormalExitStatusIsReportedOnce) {
    Fd go;
    const pid_t pid = spawn_waiting(42, &go);
    ASSERT_GT(pid, 0);
    ChildWatch w;
    ASSERT_EQ(w.open(loop, pid), 0);
    loop.run(0);
    EXPECT_EQ(w.calls, 0) << "the child is still running";
    go.reset();
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.calls, 1);
    EXPECT_EQ(w.pid, pid);
    EXPECT_EQ(w.exit_status, 42);
    EXPECT_EQ(w.term_signal, 0);
    EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1) << "the backend reaped the child";
    EXPECT_EQ(errno, ECHILD);
}

TEST_F(Children, DeathBySignalReportsTheSignal) {
    Fd go;
    const pid_t pid = spawn_waiting(0, &go);
    ASSERT_GT(pid, 0);
    ChildWatch w;
    ASSERT_EQ(w.open(loop, pid), 0);
    loop.run(0);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    EXPECT_EQ(w.pid, pid);
    EXPECT_EQ(w.term_signal, SIGKILL);
    EXPECT_EQ(w.exit_status, 0) << "as WEXITSTATUS gives for a signalled child";
}

TEST_F(Children, ChildThatExitedBeforeTheWatchIsReported) {
    const pid_t pid = spawn_exit(7);
    ASSERT_GT(pid, 0);
    wait_exited(pid);
    ChildWatch w;
    ASSERT_EQ(w.open(loop, pid), 0);
    EXPECT_EQ(w.calls, 0) << "G2: no callback from child_open itself";
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    EXPECT_EQ(w.exit_status, 7);
}

TEST_F(Children, WhatIsNotOurChildIsRefusedWithECHILD) {
    ChildWatch w;
    EXPECT_EQ(w.open(loop, getpid()), -ECHILD) << "ourselves";
    w.h.release();
    if (getppid() > 1) {
        EXPECT_EQ(w.open(loop, getppid()), -ECHILD) << "our parent";
        w.h.release();
    }
    const pid_t gone = spawn_exit(0);
    ASSERT_GT(gone, 0);
    ASSERT_EQ(waitpid(gone, nullptr, 0), gone);
    EXPECT_EQ(w.open(loop, gone), -ECHILD) << "a child already reaped";
    w.h.release();
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.calls, 0) << "a refused open never calls back";
}

TEST_F(Children, ChildReapedBySomeoneElseReportsMinusOne) {
    // reactor.h: "exit_status -1 if someone else reaped the child first".
    const pid_t pid = spawn_exit(3);
    ASSERT_GT(pid, 0);
    wait_exited(pid);
    ChildWatch w;
    ASSERT_EQ(w.open(loop, pid), 0);
    const bool we_reaped = waitpid(pid, nullptr, WNOHANG) == pid;  // e.g. pcntl_waitpid in PHP
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.calls, 1);
    if (we_reaped) {
        EXPECT_EQ(w.exit_status, -1);
    }
    else EXPECT_EQ(w.exit_status, 3);
}

TEST_F(Children, SeveralChildrenEachReportedOnceAndOthersLeftAlone) {
    constexpr int kChildren = 8;
    std::vector<ChildWatch> watches(kChildren);
    std::vector<pid_t> pids;
    for (int i = 0; i < kChildren; i++) {
        pids.push_back(spawn_exit(i + 1, (i % 3) * 2 * kMs));
        ASSERT_GT(pids.back(), 0);
        ASSERT_EQ(watches[i].open(loop, pids.back()), 0);
    }
    // A child nobody watches exits meanwhile: the backend must not reap it.
    const pid_t unwatched = spawn_exit(99);
    ASSERT_GT(unwatched, 0);
    ASSERT_TRUE(loop.run_until([&] {
        for (const ChildWatch &w : watches)
            if (w.calls == 0) return false;
        return true;
    }));
    loop.run_for(10 * kMs);
    for (int i = 0; i < kChildren; i++) {
        EXPECT_EQ(watches[i].calls, 1) << "child " << i;
        EXPECT_EQ(watches[i].pid, pids[i]);
        EXPECT_EQ(watches[i].exit_status, i + 1);
    }
    int status = 0;
    EXPECT_EQ(waitpid(unwatched, &status, 0), unwatched) << "the backend reaped a child it was not watching";
    EXPECT_EQ(WEXITSTATUS(status), 99);
}

TEST_F(Children, G3_ClosedWatchNeitherCallsBackNorReaps) {
    Fd go;
    const pid_t pid = spawn_waiting(5, &go);
    ASSERT_GT(pid, 0);
    ChildWatch w;
    ASSERT_EQ(w.open(loop, pid), 0);
    loop.run(0);
    w.h.close();
    go.reset();
    wait_exited(pid);
    loop.run_for(20 * kMs);
    EXPECT_EQ(w.calls, 0) << "G3";
    int status = 0;
    EXPECT_EQ(waitpid(pid, &status, 0), pid) << "a closed watch does not reap";
    EXPECT_EQ(WEXITSTATUS(status), 5);
}

TEST_F(Children, G3_WatchClosedInsideItsCallback) {
    const pid_t pid = spawn_exit(1);
    ASSERT_GT(pid, 0);
    ChildWatch w;
    w.close_in_callback = true;
    ASSERT_EQ(w.open(loop, pid), 0);
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.calls, 1);
}
