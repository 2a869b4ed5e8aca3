// Offloaded work (TASYNC_CAP_OFFLOAD): run on a worker thread, done on the
// loop thread inside loop_run, work_cancel succeeds only before the work
// started.
#include <atomic>
#include <thread>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

struct WorkBox {
    tasync_work_t work{};
    std::atomic<int> runs{0};
    int dones = 0;
    int status = 1;
    std::thread::id ran_on;
    std::atomic<bool> *gate = nullptr;  // run waits until it is true
    std::atomic<int> *started = nullptr;
    void (*then)(WorkBox *) = nullptr;
    void *extra = nullptr;

    WorkBox() {
        work.size = sizeof(work);
        work.run = &WorkBox::run;
        work.done = &WorkBox::done;
        work.data = this;
    }
    static void run(tasync_work_t *w) {
        auto *b = static_cast<WorkBox *>(w->data);
        b->ran_on = std::this_thread::get_id();
        if (b->started != nullptr) ++*b->started;
        b->runs++;
        if (b->gate != nullptr)
            while (!b->gate->load()) sleep_ns(200 * kUs);
    }
    static void done(tasync_work_t *w, int status) {
        in_callback();
        auto *b = static_cast<WorkBox *>(w->data);
        b->dones++;
        b->status = status;
        if (b->then != nullptr) b->then(b);
    }
};

// Work objects live in the test body; whatever happens in it, the loop is
// destroyed before they are (G8: loop_destroy settles all work), so a
// backend that never finishes a work cannot run it on freed memory.
class Offload : public LoopTest {
protected:
    void SetUp() override {
        if (!has_cap(TASYNC_CAP_OFFLOAD))
            GTEST_SKIP() << "the backend has no thread pool (no TASYNC_CAP_OFFLOAD); the core uses its own";
        LoopTest::SetUp();
    }
    struct DestroyFirst {
        Loop &loop;
        std::atomic<bool> *gate = nullptr;
        ~DestroyFirst() {
            if (gate != nullptr) *gate = true;
            loop.destroy();
        }
    };
};

}  // namespace

TEST_F(Offload, WorkRunsOnAWorkerAndCompletesOnTheLoopThread) {
    WorkBox b;
    DestroyFirst guard{loop};
    ASSERT_EQ(B().work_submit(loop, &b.work), 0);
    ASSERT_TRUE(loop.run_until([&] { return b.dones > 0; }));
    loop.spin(2);
    EXPECT_EQ(b.runs.load(), 1);
    EXPECT_EQ(b.dones, 1);
    EXPECT_EQ(b.status, 0);
    EXPECT_NE(b.ran_on, std::this_thread::get_id()) << "run is called on a worker thread";
}

TEST_F(Offload, ManyWorksEachRunAndCompleteOnce) {
    constexpr int kWorks = 500;
    std::vector<WorkBox> works(kWorks);
    for (WorkBox &w : works) {
        ASSERT_EQ(B().work_submit(loop, &w.work), 0);
    }
    auto all = [&] {
        for (const WorkBox &w : works)
            if (w.dones == 0) return false;
        return true;
    };
    ASSERT_TRUE(loop.run_until(all, 10 * kSec));
    loop.spin(2);
    for (const WorkBox &w : works) {
        EXPECT_EQ(w.runs.load(), 1);
        EXPECT_EQ(w.dones, 1);
        EXPECT_EQ(w.status, 0);
    }
}

TEST_F(Offload, CancelSucceedsOnlyBeforeTheWorkStarted) {
    // Block every worker, so that later works stay queued.
    constexpr int kWorks = 256;
    std::atomic<bool> gate{false};
    std::atomic<int> started{0};
    std::vector<WorkBox> works(kWorks);
    DestroyFirst guard{loop, &gate};  // opens the gate on any early return
    for (WorkBox &w : works) {
        w.gate = &gate;
        w.started = &started;
        ASSERT_EQ(B().work_submit(loop, &w.work), 0);
    }
    // Wait until the started count settles.
    int seen = -1;
    for (int i = 0; i < 100 && seen != started.load(); i++) {
        seen = started.load();
        sleep_ns(30 * kMs);
    }
    const int pool = started.load();
    ASSERT_GT(pool, 0) << "no work started";
    WorkBox *queued = nullptr, *running = nullptr;
    for (WorkBox &w : works) {
        if (w.runs.load() == 0 && queued == nullptr) queued = &w;
        if (w.runs.load() == 1 && running == nullptr) running = &w;
    }
    ASSERT_NE(running, nullptr);
    EXPECT_EQ(B().work_cancel(loop, &running->work), -EBUSY) << "work that has started cannot be cancelled";
    int cancel_rc = 1;
    if (queued != nullptr) cancel_rc = B().work_cancel(loop, &queued->work);
    gate = true;
    auto all = [&] {
        for (const WorkBox &w : works)
            if (w.dones == 0) return false;
        return true;
    };
    ASSERT_TRUE(loop.run_until(all, 20 * kSec));
    loop.spin(2);
    if (queued == nullptr) GTEST_SKIP() << "the pool ran all " << kWorks << " works at once; no queued work to cancel";
    EXPECT_EQ(cancel_rc, 0) << "work still queued behind " << pool << " busy workers can be cancelled";
    EXPECT_EQ(queued->runs.load(), 0) << "cancelled work never runs";
    EXPECT_EQ(queued->dones, 1);
    EXPECT_EQ(queued->status, -ECANCELED);
    EXPECT_EQ(running->status, 0);
    for (const WorkBox &w : works) {
        EXPECT_EQ(w.dones, 1);
    }
}

TEST_F(Offload, DoneMaySubmitMoreWork) {
    struct Chain {
        tasync_loop_t *loop;
        int left = 20;
    } chain{loop};
    WorkBox b;
    DestroyFirst guard{loop};
    b.extra = &chain;
    b.then = [](WorkBox *self) {
        auto *c = static_cast<Chain *>(self->extra);
        if (--c->left > 0) {
            EXPECT_EQ(B().work_submit(c->loop, &self->work), 0);
        }
    };
    ASSERT_EQ(B().work_submit(loop, &b.work), 0);
    ASSERT_TRUE(loop.run_until([&] { return chain.left == 0; }));
    loop.spin(2);
    EXPECT_EQ(b.dones, 20);
    EXPECT_EQ(b.runs.load(), 20);
}
