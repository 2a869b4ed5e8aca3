// The core's blocking pool (used when the backend has no pool of its own):
// a burst of jobs that only wait gets a thread each up to the bound, idle
// threads exit and the next burst starts them again.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tasync/core/thread_pool.hpp"
#include "test_host.hpp"

using namespace tasync_test;
using tasync::detail::ThreadPool;
using namespace std::chrono_literals;

namespace {

// Jobs that wait until `want` of them run at once (or a generous deadline
// passes), recording the most that ran together.
struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    int running = 0, peak = 0, finished = 0, want = 0;

    static void run(tasync_work_t *w) {
        auto *g = static_cast<Gate *>(w->data);
        std::unique_lock<std::mutex> lock(g->mu);
        g->peak = std::max(g->peak, ++g->running);
        g->cv.notify_all();
        g->cv.wait_for(lock, 20s, [g] { return g->running >= g->want; });
        // Leaves only once everyone has seen the peak: no job can finish
        // early and let a later one reuse its thread.
        g->cv.notify_all();
    }
    void done() {
        std::lock_guard<std::mutex> lock(mu);
        ++finished;
        cv.notify_all();
    }
    bool wait_finished(int n) {
        std::unique_lock<std::mutex> lock(mu);
        return cv.wait_for(lock, 60s, [&] { return finished >= n; });
    }
};

std::function<void(tasync_work_t *, int)> completion(Gate &g) {
    return [&g](tasync_work_t *, int) { g.done(); };
}

bool wait_until(const std::function<bool()> &pred, std::chrono::seconds limit) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

}  // namespace

// Ten jobs submitted back to back while one thread is idle: a job beyond the
// idle threads starts a thread even when the idle one was notified but has
// not woken yet, so all ten run at once. (Counting only "no idle thread"
// left most of the burst queued behind jobs that only wait.) Twenty rounds,
// each from one idle thread, since the interleaving varies.
TEST(ThreadPoolTest, ABurstBeyondTheIdleThreadsGetsAThreadPerJob) {
    for (int round = 0; round < 20; ++round) {
        Gate g;
        ThreadPool pool(64, completion(g));
        tasync_work_t warm{};
        warm.data = &g;
        warm.run = [](tasync_work_t *) {};
        pool.submit(&warm);
        ASSERT_TRUE(g.wait_finished(1));
        // Let the thread go back to waiting for a job.
        std::this_thread::sleep_for(20ms);
        ASSERT_EQ(pool.threads(), 1u);
        {
            std::lock_guard<std::mutex> lock(g.mu);
            g.want = 10;
        }
        tasync_work_t jobs[10]{};
        for (auto &j : jobs) {
            j.data = &g;
            j.run = &Gate::run;
            pool.submit(&j);
        }
        ASSERT_TRUE(g.wait_finished(11));
        EXPECT_EQ(g.peak, 10) << "round " << round;
        EXPECT_EQ(pool.threads(), 10u);
    }
}

// The bound holds however many jobs wait.
TEST(ThreadPoolTest, NoMoreThreadsThanTheBound) {
    Gate g;
    g.want = 1000;  // nobody waits for the others; each leaves after a while
    ThreadPool pool(3, completion(g));
    tasync_work_t jobs[12]{};
    for (auto &j : jobs) {
        j.data = &g;
        j.run = [](tasync_work_t *w) {
            auto *g = static_cast<Gate *>(w->data);
            {
                std::lock_guard<std::mutex> lock(g->mu);
                g->peak = std::max(g->peak, ++g->running);
            }
            std::this_thread::sleep_for(10ms);
            std::lock_guard<std::mutex> lock(g->mu);
            --g->running;
        };
        pool.submit(&j);
    }
    ASSERT_TRUE(g.wait_finished(12));
    EXPECT_LE(g.peak, 3);
    EXPECT_GE(g.peak, 1);
    EXPECT_LE(pool.threads(), 3u);
}

// Threads idle for the idle timeout exit; the next burst starts as many as
// it needs again, and the pool is destroyed cleanly with threads that left.
TEST(ThreadPoolTest, IdleThreadsExitAndTheNextBurstStartsThemAgain) {
    Gate g;
    ThreadPool pool(64, completion(g), 100ms);
    g.want = 5;
    tasync_work_t jobs[5]{};
    for (auto &j : jobs) {
        j.data = &g;
        j.run = &Gate::run;
        pool.submit(&j);
    }
    ASSERT_TRUE(g.wait_finished(5));
    EXPECT_EQ(g.peak, 5);
    // 100 ms idle, then they leave; generous for a loaded machine.
    EXPECT_TRUE(wait_until([&] { return pool.threads() == 0; }, 30s)) << pool.threads() << " threads left";

    {
        std::lock_guard<std::mutex> lock(g.mu);
        g.running = 0;
        g.peak = 0;
        g.want = 3;
    }
    tasync_work_t again[3]{};
    for (auto &j : again) {
        j.data = &g;
        j.run = &Gate::run;
        pool.submit(&j);
    }
    ASSERT_TRUE(g.wait_finished(8));
    EXPECT_EQ(g.peak, 3);
}

// Through the runtime, on a backend without a pool of its own: ten offloaded
// jobs that wait for each other all run at once with the default bound (it
// was four threads: the ten waited for the deadline in rounds).
class ThreadPoolRuntime : public RuntimeTest {};

TEST_F(ThreadPoolRuntime, TenOffloadsRunAtOnceByDefault) {
    tasync_backend_info_t info{};
    info.size = sizeof(info);
    ASSERT_EQ(tasync_runtime_backend_info(rt, &info), 0);
    if (info.capabilities & TASYNC_CAP_OFFLOAD) GTEST_SKIP() << "the backend runs offloaded work on its own pool";
    Gate g;
    g.want = 10;
    for (int i = 0; i < 10; ++i) {
        go([&](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_offload(rt, [](void *d) {
                tasync_work_t w{};
                w.data = d;
                Gate::run(&w);
            }, &g, nullptr, nullptr), 0);
        });
    }
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(g.peak, 10);
}
