// Loops as a whole: creation options, the clock, callbacks only inside
// loop_run and free to open handles (G2), one callback closing every other
// handle (G3), destroy with everything still open (G8), loops on several
// threads (G1), and argument errors (G10).
#include <malloc.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <thread>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

// Counts every callback of every kind.
struct Counter {
    std::atomic<int> calls{0};
    static void io(tasync_handle_t *, void *d, int, unsigned) { hit(d); }
    static void op(tasync_op_t *op) { hit(op->data); }
    static void hit(void *d) {
        in_callback();
        static_cast<Counter *>(d)->calls++;
    }
};

// Everything a loop can hold, all of it ready or in flight and not yet
// dispatched.
struct Everything {
    Counter counter;
    FdPair ready = make_pipe(O_NONBLOCK);
    FdPair idle = make_pipe(O_NONBLOCK);
    FdPair op_pipe = make_pipe(O_NONBLOCK);
    FdPair op_pipe2 = make_pipe(O_NONBLOCK);
    FdPair sockets = make_socketpair(SOCK_NONBLOCK);
    char op_buf[8] = {0};
    char op_buf2[8] = {0};
    tasync_op_t op{}, op2{};
    tasync_handle_t *h[5] = {};

    void open(tasync_loop_t *loop) {
        void *c = &counter;
        ASSERT_EQ(put(ready.b), 1);
        ASSERT_EQ(B().io_open(loop, ready.a, &Counter::io, c, &h[0]), 0);
        ASSERT_EQ(B().io_start(h[0], TASYNC_IO_READABLE | TASYNC_IO_WRITABLE), 0);
        ASSERT_EQ(B().io_open(loop, idle.a, &Counter::io, c, &h[1]), 0);
        ASSERT_EQ(B().io_start(h[1], TASYNC_IO_READABLE), 0);
        ASSERT_EQ(B().io_open(loop, idle.b, &Counter::io, c, &h[2]), 0);  // no interest
        ASSERT_EQ(B().io_open(loop, sockets.a, &Counter::io, c, &h[3]), 0);  // writable
        ASSERT_EQ(B().io_start(h[3], TASYNC_IO_WRITABLE), 0);
        ASSERT_EQ(B().io_open(loop, sockets.b, &Counter::io, c, &h[4]), 0);  // idle
        ASSERT_EQ(B().io_start(h[4], TASYNC_IO_READABLE), 0);
        if (has_cap(TASYNC_CAP_COMPLETION) && has_op(TASYNC_OP_READ)) {
            // One read that can never complete, one that completes at once.
            for (tasync_op_t *o : {&op, &op2}) {
                o->size = sizeof(*o);
                o->opcode = TASYNC_OP_READ;
                o->offset = TASYNC_OFFSET_CURRENT;
                o->cb = &Counter::op;
                o->data = c;
                o->len = sizeof(op_buf);
            }
            op.fd = op_pipe.a;
            op.buf = op_buf;
            op2.fd = op_pipe2.a;
            op2.buf = op_buf2;
            ASSERT_EQ(put(op_pipe2.b, 2), 2);
            ASSERT_EQ(B().op_submit(loop, &op), 0);
            ASSERT_EQ(B().op_submit(loop, &op2), 0);
        }
    }
};

// The first callback closes every handle of the set, itself included.
struct CloseAll {
    int calls = 0;
    std::vector<tasync_handle_t *> handles;
    static void fire(void *d) {
        in_callback();
        auto *c = static_cast<CloseAll *>(d);
        c->calls++;
        for (tasync_handle_t *h : c->handles) B().handle_close(h);
        c->handles.clear();
    }
};

using Lifecycle = LoopTest;

}  // namespace

TEST(Loops, CreateWithAndWithoutOptions) {
    tasync_loop_t *l = nullptr;
    ASSERT_EQ(B().loop_create(nullptr, &l), 0) << "options are optional";
    ASSERT_NE(l, nullptr);
    B().loop_destroy(l);
    for (std::uint32_t depth : {1u, 8u, 4096u}) {
        char err[256] = {0};
        tasync_loop_options_t o{};
        o.size = sizeof(o);
        o.queue_depth = depth;
        o.errbuf = err;
        o.errbuf_size = sizeof(err);
        l = nullptr;
        ASSERT_EQ(B().loop_create(&o, &l), 0) << "queue_depth " << depth << " is only a hint: " << err;
        B().loop_destroy(l);
    }
    // Options from an older host: only the first members.
    tasync_loop_options_t o{};
    o.size = offsetof(tasync_loop_options_t, queue_depth);
    l = nullptr;
    ASSERT_EQ(B().loop_create(&o, &l), 0);
    B().loop_destroy(l);
}

TEST(Loops, NowIsAMonotonicNanosecondClock) {
    Loop loop;
    ASSERT_EQ(loop.create(), 0) << loop.error();
    std::uint64_t prev = B().loop_now(loop);
    for (int i = 0; i < 100000; i++) {
        const std::uint64_t now = B().loop_now(loop);
        ASSERT_GE(now, prev) << "loop_now went backwards";
        prev = now;
    }
    const std::uint64_t b0 = B().loop_now(loop), m0 = mono_ns();
    sleep_ns(30 * kMs);
    const std::uint64_t b1 = B().loop_now(loop), m1 = mono_ns();
    const double ratio = static_cast<double>(b1 - b0) / static_cast<double>(m1 - m0);
    EXPECT_GT(ratio, 0.9) << "loop_now counts nanoseconds like CLOCK_MONOTONIC";
    EXPECT_LT(ratio, 1.1) << "loop_now counts nanoseconds like CLOCK_MONOTONIC";
}

TEST(Loops, G8_DestroyNullAndCloseNullAreNoOps) {
    B().loop_destroy(nullptr);
    B().handle_close(nullptr);
    Loop loop;
    ASSERT_EQ(loop.create(), 0);
    loop.run(0);
    loop.destroy();  // an empty loop
}

TEST_F(Lifecycle, G2_NothingIsCalledOutsideLoopRun) {
    Everything e;
    e.open(loop);
    if (HasFatalFailure()) return loop.destroy();  // before e, whose op may still be in flight
    // Everything is ready; nothing may have run yet, not even from another
    // thread.
    sleep_ns(20 * kMs);
    EXPECT_EQ(e.counter.calls.load(), 0) << "G2: a callback ran before loop_run";
    // Then they come, each inside loop_run (checked by every callback).
    int expected = 1 + 1;  // the ready pipe, the writable socket
    if (has_cap(TASYNC_CAP_COMPLETION) && has_op(TASYNC_OP_READ)) expected += 1;
    EXPECT_TRUE(loop.run_until([&] { return e.counter.calls.load() >= expected; }))
        << e.counter.calls.load() << " of at least " << expected;
    for (tasync_handle_t *h : e.h) B().handle_close(h);
    if (has_cap(TASYNC_CAP_COMPLETION) && has_op(TASYNC_OP_READ)) {
        const int before = e.counter.calls.load();
        B().op_cancel(loop, &e.op);
        EXPECT_TRUE(loop.run_until([&] { return e.counter.calls.load() > before; }));
    }
    loop.spin(2);
    loop.destroy();
}

TEST_F(Lifecycle, G3_CallbackClosingEveryOtherHandleSuppressesTheirPendingEvents) {
    for (int round = 0; round < 5; round++) {
        CloseAll c;
        FdPair p1 = make_pipe(O_NONBLOCK), p2 = make_pipe(O_NONBLOCK), p3 = make_pipe(O_NONBLOCK);
        FdPair s = make_socketpair(SOCK_NONBLOCK);
        ASSERT_EQ(put(p1.b), 1);
        ASSERT_EQ(put(p2.b), 1);
        ASSERT_EQ(put(p3.b), 1);
        tasync_handle_t *h;
        for (int fd : {p1.a.get(), p2.a.get(), p3.a.get(), s.a.get()}) {
            ASSERT_EQ(B().io_open(loop, fd, [](tasync_handle_t *, void *d, int, unsigned) { CloseAll::fire(d); }, &c, &h), 0);
            ASSERT_EQ(B().io_start(h, fd == s.a.get() ? TASYNC_IO_WRITABLE : TASYNC_IO_READABLE), 0);
            c.handles.push_back(h);
        }
        // Rotate the order in which the handles were created.
        std::rotate(c.handles.begin(), c.handles.begin() + round % c.handles.size(), c.handles.end());
        ASSERT_TRUE(loop.run_until([&] { return c.calls > 0; }));
        loop.run_for(20 * kMs);
        EXPECT_EQ(c.calls, 1) << "G3: round " << round << ": a handle closed by the first callback was still called";
    }
}

// G2: a callback opens and starts handles of its own loop; they report at
// a later loop_run like any other.
TEST_F(Lifecycle, G2_CallbackOpensAndStartsNewHandles) {
    FdPair first = make_pipe(O_NONBLOCK), second = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(first.b), 1);
    ASSERT_EQ(put(second.b), 1);
    struct Ctx {
        tasync_loop_t *loop;
        int second_fd;
        int first_calls = 0, second_calls = 0;
        tasync_handle_t *opened = nullptr;
    } c{loop, second.a};
    Handle h;
    ASSERT_EQ(B().io_open(loop, first.a, [](tasync_handle_t *self, void *d, int, unsigned) {
        in_callback();
        auto *c = static_cast<Ctx *>(d);
        if (c->first_calls++ > 0) return;
        EXPECT_EQ(B().io_stop(self), 0);
        ASSERT_EQ(B().io_open(c->loop, c->second_fd, [](tasync_handle_t *, void *d2, int, unsigned) {
            in_callback();
            static_cast<Ctx *>(d2)->second_calls++;
        }, c, &c->opened), 0);
        EXPECT_EQ(B().io_start(c->opened, TASYNC_IO_READABLE), 0);
    }, &c, h.out()), 0);
    ASSERT_EQ(B().io_start(h, TASYNC_IO_READABLE), 0);
    EXPECT_TRUE(loop.run_until([&] { return c.second_calls > 0; })) << "G2: a handle opened by a callback never reported";
    EXPECT_EQ(c.first_calls, 1) << "stopped in its own callback";
    B().handle_close(c.opened);
}

TEST_F(Lifecycle, G8_DestroyWithPendingHandlesOfEveryKindCallsNothing) {
    Everything e;
    e.open(loop);
    loop.destroy();
    if (HasFatalFailure()) return;
    EXPECT_EQ(e.counter.calls.load(), 0) << "G8: loop_destroy invoked a callback";
    // Nothing arrives later either (a completion).
    ASSERT_EQ(put(e.op_pipe.b, 3), 3);
    sleep_ns(50 * kMs);
    EXPECT_EQ(e.counter.calls.load(), 0) << "G8: a callback ran after loop_destroy";
    EXPECT_EQ(std::string(e.op_buf, 3), std::string(3, '\0')) << "G8: an op wrote into its buffer after loop_destroy";
}

TEST_F(Lifecycle, G8_DestroyWithOpsInFlightReleasesTheirBuffers) {
    if (!has_cap(TASYNC_CAP_COMPLETION) || !has_op(TASYNC_OP_READ)) GTEST_SKIP() << "no native READ";
    constexpr int kOps = 200;
    Counter counter;
    std::vector<FdPair> pipes;
    std::vector<tasync_op_t> ops(kOps);
    std::vector<char> bufs(kOps, '\0');
    for (int i = 0; i < kOps; i++) {
        pipes.push_back(make_pipe(i % 2 ? O_NONBLOCK : 0));
        tasync_op_t &o = ops[i];
        o.size = sizeof(o);
        o.opcode = TASYNC_OP_READ;
        o.fd = pipes.back().a;
        o.buf = &bufs[i];
        o.len = 1;
        o.offset = TASYNC_OFFSET_CURRENT;
        o.cb = &Counter::op;
        o.data = &counter;
        ASSERT_EQ(B().op_submit(loop, &o), 0);
        if (i % 3 == 0) loop.run(0);
    }
    loop.destroy();
    for (FdPair &p : pipes) {
        ASSERT_EQ(put(p.b, 1), 1);
    }
    sleep_ns(30 * kMs);
    EXPECT_EQ(counter.calls.load(), 0);
    int written = 0;
    for (char c : bufs) written += c != '\0';
    EXPECT_EQ(written, 0) << "G8: reads of a destroyed loop still landed in their buffers";
}

TEST(Loops, G8_RepeatedCreateDestroyLeaksNoFileDescriptors) {
    auto cycle = [] {
        Everything e;
        Loop loop;  // destroyed before e in any case
        ASSERT_EQ(loop.create(), 0);
        e.open(loop);
        loop.run(0);
        B().loop_wakeup(loop);
        loop.destroy();
    };
    cycle();  // lets a backend open what it keeps for the process
    const int before = open_fd_count();
    for (int i = 0; i < 20; i++) {
        cycle();
        if (testing::Test::HasFatalFailure()) return;
    }
    EXPECT_EQ(open_fd_count(), before) << "G8: file descriptors leaked by create/destroy";
}

TEST(Loops, G8_RepeatedCreateDestroyLeaksNoMemory) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "under AddressSanitizer, LeakSanitizer checks this at exit instead";
#else
    auto cycle = [] {
        Everything e;
        Loop loop;  // destroyed before e in any case
        ASSERT_EQ(loop.create(), 0);
        e.open(loop);
        loop.run(0);
        loop.destroy();
    };
    for (int i = 0; i < 20; i++) cycle();
    malloc_trim(0);
    const std::size_t before = mallinfo2().uordblks;
    for (int i = 0; i < 200; i++) cycle();
    malloc_trim(0);
    const std::size_t after = mallinfo2().uordblks;
    const long grew = static_cast<long>(after) - static_cast<long>(before);
    std::printf("[   INFO   ] heap in use changed by %ld bytes over 200 create/destroy cycles\n", grew);
    EXPECT_LT(grew, 32 * 1024) << "G8: the heap grows with every create/destroy cycle";
#endif
}

TEST(Loops, G1_TwoLoopsOnTwoThreadsAtOnce) {
    // Each thread runs its own loop: a pipe ping-pong, an always writable
    // socket, and wakeups sent by the other thread. Every callback must come
    // on the loop's own thread.
    struct Side {
        std::atomic<tasync_loop_t *> loop{nullptr};
        std::thread::id id;
        int writable_calls = 0, io_calls = 0, wrong_thread = 0;
        bool failed = false;
    } sides[2];
    std::atomic<int> ready{0};
    std::atomic<bool> finished[2] = {false, false};
    auto body = [&](int me) {
        Side &s = sides[me];
        s.id = std::this_thread::get_id();
        Loop loop;
        if (loop.create() != 0) {
            s.failed = true;
            ready++;
            return;
        }
        s.loop = loop.get();
        ready++;
        while (ready.load() < 2) std::this_thread::yield();
        FdPair sp = make_socketpair(SOCK_NONBLOCK);
        tasync_handle_t *hw = nullptr;
        if (B().io_open(loop, sp.a, [](tasync_handle_t *, void *d, int, unsigned) {
                auto *s = static_cast<Side *>(d);
                s->writable_calls++;
                if (std::this_thread::get_id() != s->id) s->wrong_thread++;
            }, &s, &hw) != 0 || B().io_start(hw, TASYNC_IO_WRITABLE) != 0)
            s.failed = true;
        FdPair a = make_pipe(O_NONBLOCK), b = make_pipe(O_NONBLOCK);
        struct Pong {
            Side *s;
            int in, out;
        } pong{&s, a.a, b.b}, ping{&s, b.a, a.b};
        tasync_handle_t *ha = nullptr, *hb = nullptr;
        auto bounce = [](tasync_handle_t *, void *d, int, unsigned) {
            auto *p = static_cast<Pong *>(d);
            if (std::this_thread::get_id() != p->s->id) p->s->wrong_thread++;
            if (drain(p->in) > 0) {
                p->s->io_calls++;
                if (p->s->io_calls < 4000) put(p->out, 1);
            }
        };
        if (B().io_open(loop, a.a, bounce, &pong, &ha) != 0 || B().io_open(loop, b.a, bounce, &ping, &hb) != 0 ||
            B().io_start(ha, TASYNC_IO_READABLE) != 0 || B().io_start(hb, TASYNC_IO_READABLE) != 0)
            s.failed = true;
        put(a.b, 1);
        const std::uint64_t end = mono_ns() + 10 * kSec;
        while ((s.io_calls < 4000 || s.writable_calls < 500) && mono_ns() < end) {
            loop.run(10 * kMs);
            tasync_loop_t *other = sides[1 - me].loop.load();
            if (other != nullptr && !finished[1 - me]) B().loop_wakeup(other);
        }
        finished[me] = true;
        // Keep the loop alive until the other side stops waking it.
        while (!finished[1 - me]) loop.run(1 * kMs);
        sides[me].loop = nullptr;
        B().handle_close(hw);
        B().handle_close(ha);
        B().handle_close(hb);
        loop.run(0);
    };
    std::thread t0(body, 0), t1(body, 1);
    t0.join();
    t1.join();
    for (const Side &s : sides) {
        EXPECT_FALSE(s.failed) << "loop_create failed on a second thread";
        EXPECT_GE(s.io_calls, 4000) << "G1: pipe ping-pong did not finish";
        EXPECT_GE(s.writable_calls, 500) << "G1: the writable socket was not reported";
        EXPECT_EQ(s.wrong_thread, 0) << "G1: a callback ran on the other loop's thread";
    }
}

TEST(Loops, G2_TwoLoopsOnOneThreadDispatchOnlyTheirOwnEvents) {
    Loop a, b;
    ASSERT_EQ(a.create(), 0);
    ASSERT_EQ(b.create(), 0);
    struct Seen {
        int a = 0, b = 0;
    } seen;
    FdPair pa = make_pipe(O_NONBLOCK), pb = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(pa.b), 1);
    ASSERT_EQ(put(pb.b), 1);
    Handle ia, ib;
    ASSERT_EQ(B().io_open(a, pa.a, [](tasync_handle_t *, void *d, int, unsigned) { static_cast<Seen *>(d)->a++; }, &seen,
                          ia.out()),
              0);
    ASSERT_EQ(B().io_open(b, pb.a, [](tasync_handle_t *, void *d, int, unsigned) { static_cast<Seen *>(d)->b++; }, &seen,
                          ib.out()),
              0);
    ASSERT_EQ(B().io_start(ia, TASYNC_IO_READABLE), 0);
    ASSERT_EQ(B().io_start(ib, TASYNC_IO_READABLE), 0);
    ASSERT_TRUE(a.run_until([&] { return seen.a >= 2; }));
    a.spin(3);
    EXPECT_EQ(seen.b, 0) << "G2: loop_run of one loop ran callbacks of another";
    ASSERT_TRUE(b.run_until([&] { return seen.b >= 2; }));
    ia.close();
    ib.close();
    a.run(0);
    b.run(0);
}

TEST(Loops, G1_LoopsCreatedAndDestroyedOnManyThreads) {
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 6; t++) {
        threads.emplace_back([&] {
            for (int i = 0; i < 30; i++) {
                Loop loop;
                if (loop.create() != 0) {
                    failures++;
                    continue;
                }
                int fired = 0;
                tasync_handle_t *h = nullptr;
                FdPair p = make_pipe(O_NONBLOCK);
                if (put(p.b) != 1 ||
                    B().io_open(loop, p.a, [](tasync_handle_t *, void *d, int, unsigned) { ++*static_cast<int *>(d); },
                                &fired, &h) != 0 ||
                    B().io_start(h, TASYNC_IO_READABLE) != 0) {
                    failures++;
                    continue;
                }
                const std::uint64_t end = mono_ns() + kPatience;
                while (fired == 0 && mono_ns() < end) loop.run(10 * kMs);
                if (fired == 0) failures++;
                if (i % 2) B().handle_close(h);  // else loop_destroy releases it
                loop.destroy();  // before the pipe closes
            }
        });
    }
    for (std::thread &t : threads) t.join();
    EXPECT_EQ(failures.load(), 0);
}

TEST_F(Lifecycle, G10_BadArgumentsAreRefusedWithNegativeErrno) {
    auto is_errno = [](int rc) { return rc < 0 && rc > -4096; };
    tasync_handle_t *h = nullptr;
    FdPair p = make_pipe(O_NONBLOCK);
    EXPECT_PRED1(is_errno, B().io_open(loop, p.a, nullptr, nullptr, &h)) << "io_open without a callback";
    const int closed = p.a.release();
    ::close(closed);
    EXPECT_EQ(B().io_open(loop, closed, &Counter::io, nullptr, &h), -EBADF) << "io_open on a closed fd";
}
