// Signal watches: delivery while the loop is not in loop_run, from other
// threads, several handles on one signal, close.
//
// The tool ignores SIGUSR1 and SIGUSR2 until a backend watches them (main),
// so a lost signal shows up as a failed test, not a dead process.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <thread>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

struct SigWatch {
    Handle h;
    int calls = 0;
    int last_signum = 0;
    void (*action)(SigWatch *) = nullptr;
    void *extra = nullptr;

    int open(tasync_loop_t *loop, int signum) { return B().signal_open(loop, signum, &SigWatch::fired, this, h.out()); }
    static void fired(tasync_handle_t *, void *d, int signum) {
        in_callback();
        auto *w = static_cast<SigWatch *>(d);
        w->calls++;
        w->last_signum = signum;
        if (w->action != nullptr) w->action(w);
    }
};

using Signals = LoopTest;

}  // namespace

TEST_F(Signals, SignalSentWhileNotInLoopRunIsDelivered) {
    SigWatch w;
    ASSERT_EQ(w.open(loop, SIGUSR1), 0);
    loop.run(0);
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    sleep_ns(5 * kMs);  // the signal arrives while nobody is in loop_run
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; })) << "signal never reported";
    EXPECT_EQ(w.last_signum, SIGUSR1);
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.calls, 1) << "one delivery, one call";
}

TEST_F(Signals, SignalSentBeforeTheFirstRunIsDelivered) {
    SigWatch w;
    ASSERT_EQ(w.open(loop, SIGUSR2), 0);
    ASSERT_EQ(raise(SIGUSR2), 0);
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    EXPECT_EQ(w.last_signum, SIGUSR2);
}

TEST_F(Signals, SeveralHandlesOnOneSignalAreEachCalled) {
    SigWatch a, b, c, other;
    ASSERT_EQ(a.open(loop, SIGUSR1), 0);
    ASSERT_EQ(b.open(loop, SIGUSR1), 0);
    ASSERT_EQ(c.open(loop, SIGUSR1), 0);
    ASSERT_EQ(other.open(loop, SIGUSR2), 0);
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    ASSERT_TRUE(loop.run_until([&] { return a.calls > 0 && b.calls > 0 && c.calls > 0; }))
        << a.calls << " " << b.calls << " " << c.calls;
    loop.run_for(10 * kMs);
    EXPECT_EQ(a.calls, 1);
    EXPECT_EQ(b.calls, 1);
    EXPECT_EQ(c.calls, 1);
    EXPECT_EQ(other.calls, 0) << "a handle of another signal";

    // One of them closed: the others still hear the next delivery.
    b.h.close();
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    ASSERT_TRUE(loop.run_until([&] { return a.calls == 2 && c.calls == 2; }));
    loop.run_for(10 * kMs);
    EXPECT_EQ(b.calls, 1) << "G3: a closed signal handle is not called";
}

TEST_F(Signals, RepeatedDeliveriesAreReportedAtLeastOnce) {
    SigWatch w;
    ASSERT_EQ(w.open(loop, SIGUSR1), 0);
    for (int i = 0; i < 5; i++) {
        ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    }
    ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; }));
    loop.run_for(10 * kMs);
    EXPECT_GE(w.calls, 1);
    EXPECT_LE(w.calls, 5) << "never more calls than deliveries";
    // And again after a full round.
    const int before = w.calls;
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    ASSERT_TRUE(loop.run_until([&] { return w.calls > before; }));
}

TEST_F(Signals, SignalAimedAtAnotherThreadReachesTheLoop) {
    // A thread that does not run the loop and was started before the watch
    // (so it has the old signal mask) is sent the signal directly.
    SigWatch w;
    std::atomic<bool> stop{false};
    std::atomic<bool> ready{false};
    pthread_t other;
    std::thread t([&] {
        other = pthread_self();
        ready = true;
        while (!stop) sleep_ns(1 * kMs);
    });
    while (!ready) sleep_ns(1 * kMs);
    if (w.open(loop, SIGUSR2) != 0) {
        stop = true;
        t.join();
        FAIL() << "signal_open(SIGUSR2) failed";
    }
    ASSERT_EQ(pthread_kill(other, SIGUSR2), 0);
    const bool got = loop.run_until([&] { return w.calls > 0; });
    // Process-directed from another thread, too.
    std::thread([] { kill(getpid(), SIGUSR2); }).join();
    const bool got2 = loop.run_until([&] { return w.calls > 1; });
    stop = true;
    t.join();
    EXPECT_TRUE(got) << "a signal delivered to another thread was lost";
    EXPECT_TRUE(got2) << "a signal sent from another thread was lost";
}

TEST_F(Signals, G3_SignalHandleClosedInsideItsCallback) {
    SigWatch a, b;
    a.action = [](SigWatch *self) { self->h.close(); };
    ASSERT_EQ(a.open(loop, SIGUSR1), 0);
    ASSERT_EQ(b.open(loop, SIGUSR1), 0);
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    ASSERT_TRUE(loop.run_until([&] { return a.calls > 0 && b.calls > 0; }));
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    ASSERT_TRUE(loop.run_until([&] { return b.calls > 1; }));
    EXPECT_EQ(a.calls, 1);
}

TEST_F(Signals, G3_HandleClosedBeforeThePendingSignalIsDispatched) {
    SigWatch a, b;
    ASSERT_EQ(a.open(loop, SIGUSR2), 0);
    ASSERT_EQ(b.open(loop, SIGUSR2), 0);
    loop.run(0);
    ASSERT_EQ(kill(getpid(), SIGUSR2), 0);
    a.h.close();
    ASSERT_TRUE(loop.run_until([&] { return b.calls > 0; }));
    loop.run_for(10 * kMs);
    EXPECT_EQ(a.calls, 0) << "G3: closed before loop_run saw its signal";
}

TEST_F(Signals, WatchCanBeOpenedAgainAfterClose) {
    for (int round = 0; round < 3; round++) {
        SigWatch w;
        ASSERT_EQ(w.open(loop, SIGUSR1), 0) << "round " << round;
        ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
        ASSERT_TRUE(loop.run_until([&] { return w.calls > 0; })) << "round " << round;
        w.h.close();
        loop.run(0);
    }
}

TEST_F(Signals, G10_InvalidSignalNumbersAreRefused) {
    for (int signum : {0, -1, 100000}) {
        Handle h;
        const int rc = B().signal_open(loop, signum, &SigWatch::fired, nullptr, h.out());
        EXPECT_LT(rc, 0) << "signal " << signum;
        EXPECT_GT(rc, -4096) << "a negative errno";
        if (rc == 0) h.close();
        else h.release();
    }
}

TEST_F(Signals, SameSignalWatchedByTwoLoopsOfOneThreadReachesBoth) {
    Loop other;
    ASSERT_EQ(other.create(), 0);
    SigWatch a, b;
    ASSERT_EQ(a.open(loop, SIGUSR2), 0);
    ASSERT_EQ(b.open(other, SIGUSR2), 0);
    for (int round = 1; round <= 3; round++) {
        ASSERT_EQ(kill(getpid(), SIGUSR2), 0);
        const std::uint64_t end = mono_ns() + kPatience;
        while ((a.calls < round || b.calls < round) && mono_ns() < end) {
            loop.run(1 * kMs);
            other.run(1 * kMs);
        }
        EXPECT_EQ(a.calls, round) << "the first loop, delivery " << round;
        EXPECT_EQ(b.calls, round) << "the second loop, delivery " << round;
    }
    b.h.close();
    other.run(0);
}
