// docs/architecture.md, "Fork": a process that forks keeps a working runtime in the
// child (the reactor is re-created there, G11) or refuses clearly.
//
// The child reports through its exit code only (see child_failure).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

#include "test_host.hpp"

using namespace tasync_test;

namespace {

const char *child_failure(int code) {
    switch (code) {
        case 1: return "waiting for an fd failed in the child";
        case 2: return "a delay failed in the child";
        case 3: return "a coroutine sleeping across the fork did not wake in the child";
        case 4: return "the child's runtime did not refuse with a warning that says why";
        case 5: return "an offloaded job in flight at the fork did not fail in the child";
        case 6: return "spawn/await failed in the child";
        default: return "the child crashed or ended unexpectedly";
    }
}

void expect_child_ok(pid_t pid) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << child_failure(WEXITSTATUS(status));
}

bool backend_offloads(tasync_runtime_t *rt) {
    tasync_backend_info_t info{};
    info.size = sizeof(info);
    return tasync_runtime_backend_info(rt, &info) == 0 && (info.capabilities & TASYNC_CAP_OFFLOAD) != 0;
}

}  // namespace

class Fork : public RuntimeTest {};

TEST_F(Fork, ChildKeepsAWorkingRuntime) {
    bool slept = false;
    pid_t pid = -1;
    go([&](tasync_coroutine_t *) {  // sleeps across the fork, in both processes
        tasync_delay(rt, 30 * kMs, nullptr, nullptr);
        slept = true;
    });
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        pid = fork();
        if (pid != 0) return;
        int fds[2];
        if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0 || write(fds[1], "x", 1) != 1) _exit(1);
        unsigned revents = 0;
        if (tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, &revents, nullptr) != 0) _exit(1);
        tasync_fd_forget(rt, fds[0]);
        if (tasync_delay(rt, 5 * kMs, nullptr, nullptr) != 0) _exit(2);
        bool ran = false;
        tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { ran = true; });
        if (tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, nullptr) != 0 || !ran)
            _exit(6);
        tasync_coroutine_release(co);
        for (int i = 0; i < 500 && !slept; i++) tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        _exit(slept ? 0 : 3);
    });
    EXPECT_EQ(run(), 0);
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(slept);
    expect_child_ok(pid);
}

TEST_F(Fork, OffloadedJobInFlightFailsInTheChildOrTheChildRefuses) {
    std::atomic<bool> started{false};
    int job_rc = 1;
    bool job_done = false;
    pid_t pid = -1;
    const bool refuses = backend_offloads(rt);  // work on the backend's pool cannot be finished there
    go([&](tasync_coroutine_t *) {
        job_rc = tasync_offload(rt, [](void *d) {
            static_cast<std::atomic<bool> *>(d)->store(true);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }, &started, nullptr, nullptr);
        job_done = true;
    });
    go([&](tasync_coroutine_t *) {
        while (!started) tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        pid = fork();
        if (pid != 0) return;
        if (refuses) {
            tasync_delay(rt, 5 * kMs, nullptr, nullptr);  // the first poll refuses
            for (const std::string &w : host.warnings)
                if (w.find("cannot continue") != std::string::npos && w.find("fork") != std::string::npos) _exit(0);
            _exit(4);
        }
        for (int i = 0; i < 150 && !job_done; i++) tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        _exit(job_done && job_rc == -ECANCELED ? 0 : 5);
    });
    EXPECT_EQ(run(), 0);
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(job_done);
    EXPECT_EQ(job_rc, 0) << "the parent's job finishes normally";
    expect_child_ok(pid);
}

// A child that ends without touching the runtime again still destroys it:
// the workers of the parent's thread pool (idle, waiting for jobs) do not
// exist in the child, so the destruction must not wait for them (it hung in
// pthread_cond_destroy before). The child is killed after 10 s.
TEST_F(Fork, AChildThatNeverUsesTheRuntimeAgainDestroysIt) {
    int job_rc = 1;
    go([&](tasync_coroutine_t *) { job_rc = tasync_offload(rt, [](void *) {}, nullptr, nullptr, nullptr); });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(job_rc, 0);
    pid_t pid = fork();
    if (pid == 0) {
        tasync_runtime_destroy(rt);
        _exit(0);
    }
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(child_exits_cleanly(pid, 10, "the child's tasync_runtime_destroy"));
}
