// Rule C25: the stall watchdog warns once per stall, from its own thread,
// while the stall lasts; waiting in the reactor and ordinary work are not
// stalls. The blocking stalls here end only once the report was seen, so
// the tests do not depend on timing: a missing report fails by timeout.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "tasync/core/runtime.hpp"
#include "test_host.hpp"

using namespace tasync_test;

namespace {

constexpr auto kReportWait = std::chrono::seconds(20);

// What the host's stall_report member was given (it runs on the
// watchdog's thread).
struct StallLog {
    std::mutex mu;
    int calls = 0;
    tasync_stall_info_t last{};
    bool host_text = true;  // false: return 0, the core writes its own
};
StallLog g_log;

size_t record_stall(void *, const tasync_stall_info_t *info, char *buf, size_t len) {
    std::lock_guard<std::mutex> lock(g_log.mu);
    ++g_log.calls;
    g_log.last = *info;
    if (!g_log.host_text) return 0;
    const int n = std::snprintf(buf, len, "host: stall of coroutine %llu\n",
                                static_cast<unsigned long long>(info->coroutine_id));
    return n > 0 ? static_cast<size_t>(n) : 0;
}

std::uint64_t spin_until(std::chrono::steady_clock::time_point end) {
    std::uint64_t n = 0;
    while (std::chrono::steady_clock::now() < end) n = n * 31 + 7;
    return n;
}

}  // namespace

class Stall : public RuntimeTest {
protected:
    void SetUp() override {
        {
            std::lock_guard<std::mutex> lock(g_log.mu);
            g_log.calls = 0;
            g_log.last = {};
            g_log.host_text = true;
        }
        host.table.stall_report = &record_stall;
        create(nullptr);
        ASSERT_EQ(pipe2(out_, O_CLOEXEC | O_NONBLOCK), 0);
    }
    void TearDown() override {
        RuntimeTest::TearDown();
        close(out_[0]);
        close(out_[1]);
    }

    // The reports go to out_ instead of stderr. The watchdog exists from
    // the first spawn on.
    void capture() {
        ASSERT_NE(rt->watchdog, nullptr) << "the watchdog did not start at the first spawn";
        rt->watchdog->set_output_fd(out_[1]);
    }
    std::uint64_t reports() const { return rt->watchdog != nullptr ? rt->watchdog->reports() : 0; }
    std::string written() {
        std::string s;
        char buf[4096];
        ssize_t n;
        while ((n = read(out_[0], buf, sizeof(buf))) > 0) s.append(buf, static_cast<size_t>(n));
        return s;
    }
    static int count(const std::string &text, const std::string &what) {
        int n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
        return n;
    }
    // Waits (on this thread, which is not the runtime's) until the watchdog
    // reported `want` stalls; false after kReportWait.
    bool wait_reports(std::uint64_t want) {
        const auto end = std::chrono::steady_clock::now() + kReportWait;
        while (reports() < want) {
            if (std::chrono::steady_clock::now() > end) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return true;
    }

    int out_[2] = {-1, -1};
};

// A coroutine blocked in a plain read(2) on a pipe, whose writer waits for
// the report: the report comes from the watchdog's thread while the read
// still blocks (the scheduler cannot help), exactly once, naming the
// coroutine.
TEST_F(Stall, C25_ABlockingReadIsReportedOnceWhileItBlocks) {
    tasync_runtime_set_stall_timeout(rt, 100 * kMs);
    int p[2];
    ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
    std::atomic<bool> reported_while_blocked{false};
    uint64_t id = 0;
    std::thread writer;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        id = tasync_coroutine_id(self);
        char c;
        EXPECT_EQ(read(p[0], &c, 1), 1);  // blocks the whole thread
    });
    capture();
    go([&](tasync_coroutine_t *) { tasync_delay(rt, 1 * kMs, nullptr, nullptr); });
    writer = std::thread([&] {
        reported_while_blocked = wait_reports(1);
        // Several sampling periods more of the same stall: still one report.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        EXPECT_EQ(write(p[1], "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    writer.join();
    tasync_coroutine_release(co);
    close(p[0]);
    close(p[1]);
    EXPECT_TRUE(reported_while_blocked);
    EXPECT_EQ(reports(), 1u);
    std::lock_guard<std::mutex> lock(g_log.mu);
    EXPECT_EQ(g_log.calls, 1);
    EXPECT_EQ(g_log.last.coroutine_id, id);
    EXPECT_EQ(g_log.last.is_main, 0u);
    EXPECT_NE(g_log.last.co, nullptr);
    EXPECT_GE(g_log.last.stalled_ns, 100 * kMs);
    EXPECT_EQ(g_log.last.timeout_ns, 100 * kMs);
    EXPECT_STREQ(g_log.last.spawned_at.file, "test.php");
    EXPECT_EQ(written(), "host: stall of coroutine " + std::to_string(id) + "\n");
}

// Without the host's text the core writes its own, naming the coroutine
// and where it was spawned, and saying what to do.
TEST_F(Stall, C25_TheCoreWritesItsOwnReportWhenTheHostHasNone) {
    {
        std::lock_guard<std::mutex> lock(g_log.mu);
        g_log.host_text = false;
    }
    tasync_runtime_set_stall_timeout(rt, 100 * kMs);
    int p[2];
    ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
    uint64_t id = 0;
    go([&](tasync_coroutine_t *self) {
        id = tasync_coroutine_id(self);
        char c;
        EXPECT_EQ(read(p[0], &c, 1), 1);
    });
    capture();
    std::thread writer([&] {
        wait_reports(1);
        EXPECT_EQ(write(p[1], "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    writer.join();
    close(p[0]);
    close(p[1]);
    const std::string text = written();
    EXPECT_EQ(count(text, "has not come back to the scheduler"), 1) << text;
    EXPECT_NE(text.find("coroutine " + std::to_string(id) + " (spawned at test.php:"), std::string::npos) << text;
    EXPECT_NE(text.find("(stall timeout 0.100 s)"), std::string::npos) << text;
    EXPECT_NE(text.find("tasync_offload"), std::string::npos) << text;
    EXPECT_EQ(text.back(), '\n');
}

// Two stalls, one report each: the second is a new stall once the
// coroutine came back in between.
TEST_F(Stall, C25_EachStallIsReportedOnce) {
    tasync_runtime_set_stall_timeout(rt, 100 * kMs);
    int p[2];
    ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
    go([&](tasync_coroutine_t *) {
        char c;
        EXPECT_EQ(read(p[0], &c, 1), 1);
        tasync_yield(rt, nullptr);
        EXPECT_EQ(read(p[0], &c, 1), 1);
    });
    go([&](tasync_coroutine_t *) { tasync_yield(rt, nullptr); });
    capture();
    std::thread writer([&] {
        wait_reports(1);
        EXPECT_EQ(write(p[1], "x", 1), 1);
        wait_reports(2);
        EXPECT_EQ(write(p[1], "y", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    writer.join();
    close(p[0]);
    close(p[1]);
    EXPECT_EQ(reports(), 2u);
    EXPECT_EQ(count(written(), "host: stall of coroutine"), 2);
}

// Waiting in the reactor (a delay, an fd, both longer than the timeout)
// is idle, not stalled; nor is ordinary work that switches often.
TEST_F(Stall, C25_IdleWaitsAndOrdinaryWorkAreNotStalls) {
    tasync_runtime_set_stall_timeout(rt, 500 * kMs);
    int p[2];
    ASSERT_EQ(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
    go([&](tasync_coroutine_t *) { EXPECT_EQ(tasync_delay(rt, 1200 * kMs, nullptr, nullptr), 0); });
    go([&](tasync_coroutine_t *) {
        unsigned revents = 0;
        EXPECT_EQ(tasync_await_fd(rt, p[0], TASYNC_IO_READABLE, nullptr, &revents, nullptr), 0);
        tasync_fd_forget(rt, p[0]);
    });
    capture();
    std::thread writer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(900));
        EXPECT_EQ(write(p[1], "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    writer.join();
    // Ordinary work: coroutines that compute a few milliseconds at a time
    // and yield, for several timeouts in all.
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(1200);
    std::atomic<std::uint64_t> sink{0};
    for (int i = 0; i < 4; i++) {
        go([&](tasync_coroutine_t *) {
            while (std::chrono::steady_clock::now() < end) {
                sink += spin_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(2));
                tasync_yield(rt, nullptr);
            }
        });
    }
    EXPECT_EQ(run(), 0);
    close(p[0]);
    close(p[1]);
    EXPECT_EQ(reports(), 0u) << written();
}

// The main coroutine computing alone starves nobody; with a coroutine
// queued behind it, it stalls, and the report names the main coroutine.
TEST_F(Stall, C25_TheMainCoroutineStallsOnlyWhenSomethingWaits) {
    tasync_runtime_set_stall_timeout(rt, 100 * kMs);
    go([&](tasync_coroutine_t *) {});
    capture();
    EXPECT_EQ(run(), 0);
    spin_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(600));
    EXPECT_EQ(reports(), 0u) << written();

    bool ran = false;
    go([&](tasync_coroutine_t *) { ran = true; });
    const auto end = std::chrono::steady_clock::now() + kReportWait;
    while (reports() == 0 && std::chrono::steady_clock::now() < end) spin_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(10));
    EXPECT_FALSE(ran);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(ran);
    EXPECT_EQ(reports(), 1u);
    std::lock_guard<std::mutex> lock(g_log.mu);
    EXPECT_EQ(g_log.last.is_main, 1u);
    EXPECT_EQ(g_log.last.coroutine_id, 0u);
}

// 0 disables the watchdog; a new timeout enables it again.
TEST_F(Stall, C25_ZeroDisablesTheWatchdog) {
    tasync_runtime_set_stall_timeout(rt, 100 * kMs);
    int p[2];
    ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
    go([&](tasync_coroutine_t *) {
        tasync_runtime_set_stall_timeout(rt, 0);
        char c;
        EXPECT_EQ(read(p[0], &c, 1), 1);
        tasync_runtime_set_stall_timeout(rt, 100 * kMs);
        EXPECT_EQ(read(p[0], &c, 1), 1);
    });
    go([&](tasync_coroutine_t *) { tasync_yield(rt, nullptr); });
    capture();
    std::thread writer([&] {
        // Six timeouts of a stall while disabled: nothing.
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        EXPECT_EQ(reports(), 0u);
        EXPECT_EQ(write(p[1], "x", 1), 1);
        wait_reports(1);
        EXPECT_EQ(write(p[1], "y", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    writer.join();
    close(p[0]);
    close(p[1]);
    EXPECT_EQ(reports(), 1u);
}

// Without a timeout no thread is started; destroying a runtime whose
// watchdog samples rarely does not wait for its next sample.
TEST_F(Stall, C25_TheThreadStartsLazilyAndStopsAtOnce) {
    go([&](tasync_coroutine_t *) {});
    EXPECT_EQ(rt->watchdog, nullptr);
    EXPECT_EQ(run(), 0);
    tasync_runtime_set_stall_timeout(rt, 3600ull * 1000 * kMs);
    EXPECT_EQ(rt->watchdog, nullptr);  // not before the next spawn
    go([&](tasync_coroutine_t *) {});
    EXPECT_NE(rt->watchdog, nullptr);
    EXPECT_EQ(run(), 0);
    const auto t0 = std::chrono::steady_clock::now();
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

// A child made by fork() does not inherit the parent's (absent) watchdog
// thread: it gets one of its own, which reports the child's stalls.
TEST_F(Stall, C25_AForkedChildHasAWatchdogOfItsOwn) {
    tasync_runtime_set_stall_timeout(rt, 100 * kMs);
    pid_t pid = -1;
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        tasync::detail::Watchdog *parents = rt->watchdog.get();
        pid = fork();
        if (pid != 0) return;
        // In the child: the first use of the reactor starts a new thread.
        if (tasync_delay(rt, 1 * kMs, nullptr, nullptr) != 0) _exit(2);
        if (rt->watchdog == nullptr || rt->watchdog.get() == parents) _exit(3);
        rt->watchdog->set_output_fd(out_[1]);
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) _exit(4);
        std::thread writer([&] {
            const auto end = std::chrono::steady_clock::now() + kReportWait;
            while (rt->watchdog->reports() == 0 && std::chrono::steady_clock::now() < end)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            if (write(p[1], "x", 1) != 1) _exit(5);
        });
        tasync_coroutine_t *blocker = spawn([&](tasync_coroutine_t *) {
            char c;
            if (read(p[0], &c, 1) != 1) _exit(6);
        });
        tasync_await(rt, tasync_coroutine_awaitable(blocker), nullptr, nullptr, nullptr);
        writer.join();
        _exit(rt->watchdog->reports() == 1 ? 0 : 1);
    });
    capture();
    EXPECT_EQ(run(), 0);
    ASSERT_GT(pid, 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no report in the child; 3: no new watchdog in the child";
    EXPECT_EQ(count(written(), "host: stall of coroutine"), 1);
    EXPECT_EQ(reports(), 0u);  // the parent never stalled
}
