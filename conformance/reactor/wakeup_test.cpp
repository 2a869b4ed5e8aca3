// loop_run and loop_wakeup (G7): timeouts bound the wait, loop_run(0) never
// blocks, readiness and a wakeup from another thread end a wait, a wakeup
// sent before loop_run makes the next run return promptly, and none is lost
// under load.
//
// A lost wakeup shows as a loop_run that sleeps for its whole (long)
// timeout; the checks below compare against half of that timeout, which a
// working backend never comes near.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

using Wakeup = LoopTest;

constexpr std::int64_t kLong = 4 * kSec;  // a wait a wakeup must cut short

}  // namespace

TEST_F(Wakeup, G7_RunZeroNeverBlocks) {
    // An idle fd: nothing is ready.
    Handle io;
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(B().io_open(loop, p.a, [](tasync_handle_t *, void *, int, unsigned) {}, nullptr, io.out()), 0);
    ASSERT_EQ(B().io_start(io, TASYNC_IO_READABLE), 0);
    std::uint64_t worst = 0;
    const std::uint64_t start = mono_ns();
    for (int i = 0; i < 2000; i++) {
        const std::uint64_t t = mono_ns();
        loop.run(0);
        worst = std::max(worst, mono_ns() - t);
    }
    const std::uint64_t total = mono_ns() - start;
    std::printf("[   INFO   ] loop_run(0): %.2f us on average, worst %.1f us\n", total / 2000.0 / 1000.0,
                worst / 1000.0);
    EXPECT_LT(worst, static_cast<std::uint64_t>(1 * kSec)) << "G7: loop_run(0) blocked";
}

TEST_F(Wakeup, G7_TimeoutEndsAnIdleRun) {
    const std::uint64_t start = mono_ns();
    loop.run(20 * kMs);
    const std::uint64_t took = mono_ns() - start;
    EXPECT_LT(took, static_cast<std::uint64_t>(kLong / 2)) << "G7: loop_run(20 ms) did not return";
    std::printf("[   INFO   ] loop_run(20 ms) with nothing to do returned after %.2f ms\n", took / 1e6);
}

// An fd that another thread makes ready, with a long or no timeout: the
// wait ends for it.
TEST_F(Wakeup, G7_FdBecomingReadyEndsTheWait) {
    for (std::int64_t timeout : {kLong, std::int64_t{-1}}) {
        FdPair p = make_pipe(O_NONBLOCK);
        int ready = 0;
        Handle io;
        ASSERT_EQ(B().io_open(loop, p.a, [](tasync_handle_t *, void *d, int, unsigned) { ++*static_cast<int *>(d); },
                              &ready, io.out()),
                  0);
        ASSERT_EQ(B().io_start(io, TASYNC_IO_READABLE), 0);
        std::atomic<bool> stop{false};
        std::thread writer([&] {
            sleep_ns(10 * kMs);
            EXPECT_EQ(put(p.b), 1);
            // A lost readiness must fail the test, not hang it.
            for (int i = 0; i < 100 && !stop; i++) sleep_ns(50 * kMs);
            if (!stop) B().loop_wakeup(loop);
        });
        const std::uint64_t start = mono_ns();
        int runs = 0;
        while (ready == 0 && runs < 1000 && mono_ns() - start < static_cast<std::uint64_t>(2 * kLong)) {
            loop.run(timeout);
            runs++;
        }
        stop = true;
        writer.join();
        EXPECT_GT(ready, 0) << "loop_run(" << timeout << ") did not report the fd";
        EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(kLong / 2))
            << "G7: loop_run(" << timeout << ") waited past the fd becoming ready";
    }
}

// loop_run's positive return (defined since ABI 1.2): the number of
// callbacks the run made. A run that ended at its timeout or for a wakeup
// made none and returns 0.
TEST_F(Wakeup, G7_LoopRunReturnsHowManyCallbacksItMade) {
    FdPair p1 = make_pipe(O_NONBLOCK);
    FdPair p2 = make_pipe(O_NONBLOCK);
    int calls = 0;
    auto count = [](tasync_handle_t *, void *d, int, unsigned) { ++*static_cast<int *>(d); };
    Handle a, b;
    ASSERT_EQ(B().io_open(loop, p1.a, count, &calls, a.out()), 0);
    ASSERT_EQ(B().io_open(loop, p2.a, count, &calls, b.out()), 0);
    ASSERT_EQ(B().io_start(a, TASYNC_IO_READABLE), 0);
    ASSERT_EQ(B().io_start(b, TASYNC_IO_READABLE), 0);
    EXPECT_EQ(loop.run(10 * kMs), 0) << "loop_run that reached its timeout made a callback";
    EXPECT_EQ(calls, 0);

    ASSERT_EQ(put(p1.b), 1);
    ASSERT_EQ(put(p2.b), 1);
    // Level-triggered: each run reports what is ready, in one run or
    // several; whatever the split, the returns add up to the callbacks.
    int returned = 0;
    for (int i = 0; i < 100 && calls < 2; i++) returned += loop.run(50 * kMs);
    EXPECT_GE(calls, 2) << "the readable pipes were not reported";
    EXPECT_EQ(returned, calls) << "loop_run's return is the number of callbacks it made";

    ASSERT_EQ(B().io_stop(a), 0);
    ASSERT_EQ(B().io_stop(b), 0);
    const int before = calls;
    ASSERT_EQ(B().loop_wakeup(loop), 0);
    EXPECT_EQ(loop.run(kLong), 0) << "a wakeup is not a callback";
    EXPECT_EQ(calls, before);
}

TEST_F(Wakeup, G7_WakeupFromAnotherThreadEndsTheWait) {
    for (int round = 0; round < 5; round++) {
        std::atomic<bool> sent{false};
        std::thread t([&] {
            sleep_ns(10 * kMs);
            sent = true;
            EXPECT_EQ(B().loop_wakeup(loop), 0);
        });
        const std::uint64_t start = mono_ns();
        // Spurious returns are allowed: wait until the one after the send.
        while (!sent && mono_ns() - start < static_cast<std::uint64_t>(kLong)) loop.run(kLong);
        if (!sent) {
            t.join();
            FAIL() << "never saw the wakeup thread send";
        }
        t.join();
        EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(kLong / 2))
            << "G7: loop_run waited out its timeout despite loop_wakeup (round " << round << ")";
    }
}

TEST_F(Wakeup, G7_WakeupBeforeRunMakesTheNextRunReturnPromptly) {
    for (int round = 0; round < 5; round++) {
        ASSERT_EQ(B().loop_wakeup(loop), 0);
        if (round == 1) {
            ASSERT_EQ(B().loop_wakeup(loop), 0);  // two coalesce into at least one
        }
        const std::uint64_t start = mono_ns();
        loop.run(kLong);
        EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(kLong / 2))
            << "G7: a wakeup sent before loop_run was lost (round " << round << ")";
    }
    // And from another thread, while the loop is busy elsewhere.
    std::thread([&] { B().loop_wakeup(loop); }).join();
    const std::uint64_t start = mono_ns();
    loop.run(kLong);
    EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(kLong / 2));
}

TEST_F(Wakeup, G7_ManyWakeupsFromManyThreadsUnderLoad) {
    // Four threads flood the loop with wakeups while it also serves a busy
    // pipe; then, with the flood over, a ping-pong of single wakeups in
    // which every one must be seen: a lost one stalls a round for the full
    // timeout.
    Handle io;
    FdPair p = make_pipe(O_NONBLOCK);
    struct Pipe {
        int rfd, wfd;
        long bytes = 0;
    } pipe_ctx{p.a, p.b};
    ASSERT_EQ(B().io_open(loop, p.a, [](tasync_handle_t *, void *d, int, unsigned) {
        auto *c = static_cast<Pipe *>(d);
        c->bytes += drain(c->rfd);
        put(c->wfd, 1);
    }, &pipe_ctx, io.out()), 0);
    ASSERT_EQ(B().io_start(io, TASYNC_IO_READABLE), 0);
    ASSERT_EQ(put(p.b, 1), 1);

    // The threads start together once the loop is about to run: started
    // freely, they can finish the whole flood before its first iteration
    // on a busy machine, and then nothing was served "under load".
    constexpr int kThreads = 4, kEach = 20000;
    std::atomic<int> done{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> flood;
    for (int i = 0; i < kThreads; i++) {
        flood.emplace_back([&] {
            while (!go) std::this_thread::yield();
            for (int k = 0; k < kEach; k++) {
                if (B().loop_wakeup(loop) != 0) ADD_FAILURE() << "loop_wakeup failed";
            }
            done++;
        });
    }
    const std::uint64_t flood_start = mono_ns();
    int runs = 0;
    // The bound only keeps a broken backend from spinning forever: on a
    // loaded 2-CPU machine (CI runs the phpt suites beside this test) each
    // of the 80 000 wakeups may be a system call that waits for a CPU, so it
    // stays well below meson's timeout rather than near the usual 0.1 s.
    go = true;
    do {
        loop.run(100 * kMs);
        runs++;
    } while (done < kThreads && mono_ns() - flood_start < static_cast<std::uint64_t>(90 * kSec));
    for (std::thread &t : flood) t.join();
    EXPECT_EQ(done.load(), kThreads);
    EXPECT_GT(pipe_ctx.bytes, 0);
    ASSERT_EQ(B().io_stop(io), 0);
    loop.run(0);

    // Ping-pong: the helper posts a number and wakes the loop; the loop
    // answers. Random small delays put the send both before and during the
    // wait.
    constexpr int kRounds = 1000;
    std::atomic<int> posted{0}, answered{0};
    std::atomic<bool> stop{false};
    std::thread helper([&] {
        unsigned x = 12345;
        for (int r = 1; r <= kRounds && !stop; r++) {
            x = x * 1103515245u + 12345u;
            if ((x >> 16) % 3 == 0) sleep_ns(static_cast<std::int64_t>((x >> 8) % 200) * kUs);
            posted = r;
            B().loop_wakeup(loop);
            while (answered.load() != r && !stop) std::this_thread::yield();
        }
    });
    std::uint64_t worst = 0;
    int lost = 0;
    for (int r = 1; r <= kRounds; r++) {
        const std::uint64_t start = mono_ns();
        while (posted.load() < r && mono_ns() - start < static_cast<std::uint64_t>(kLong)) loop.run(kLong);
        const std::uint64_t took = mono_ns() - start;
        worst = std::max(worst, took);
        if (posted.load() < r || took > static_cast<std::uint64_t>(kLong / 2)) {
            lost++;
            break;
        }
        answered = r;
    }
    stop = true;
    helper.join();
    std::printf("[   INFO   ] %d x %d wakeups in %d runs; %d ping-pong rounds, slowest %.1f us\n", kThreads, kEach, runs,
                kRounds, worst / 1000.0);
    EXPECT_EQ(lost, 0) << "G7: a wakeup was lost (loop_run slept through it)";
}
