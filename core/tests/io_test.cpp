// Reactor-backed waits: fds, cross-thread wakeups and offloaded work
// (signals and child processes: signal_test.cpp, child_test.cpp).
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
struct Pipe {
    int r = -1, w = -1;
    Pipe() {
        int fds[2];
        EXPECT_EQ(pipe2(fds, O_NONBLOCK | O_CLOEXEC), 0);
        r = fds[0];
        w = fds[1];
    }
    ~Pipe() {
        if (r >= 0) close(r);
        if (w >= 0) close(w);
    }
};
}  // namespace

class Io : public RuntimeTest {};

TEST_F(Io, FdBecomesReadableThroughAPipe) {
    Pipe p;
    go([&](tasync_coroutine_t *) {
        unsigned revents = 0;
        EXPECT_EQ(tasync_await_fd(rt, p.r, TASYNC_IO_READABLE, nullptr, &revents, nullptr), 0);
        EXPECT_TRUE(revents & TASYNC_IO_READABLE);
        char buf[8];
        EXPECT_EQ(read(p.r, buf, sizeof(buf)), 5);
        out.push_back(std::string(buf, 5));
    });
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 5 * kMs, nullptr, nullptr);
        out.push_back("writing");
        EXPECT_EQ(write(p.w, "hello", 5), 5);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"writing", "hello"}));
    tasync_fd_forget(rt, p.r);
}

// A timer that is due when the runtime polls wakes its coroutine before
// the coroutines whose fds the same poll reports.
TEST_F(Io, DueTimersWakeBeforeFdsReadyAtTheSamePoll) {
    Pipe p;
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_await_fd(rt, p.r, TASYNC_IO_READABLE, nullptr, nullptr, nullptr), 0);
        out.push_back("fd");
    });
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_delay(rt, 1 * kMs, nullptr, nullptr), 0);
        out.push_back("timer");
    });
    go([&](tasync_coroutine_t *) {
        // Both become ready while this coroutine runs without yielding.
        EXPECT_EQ(write(p.w, "x", 1), 1);
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
        while (std::chrono::steady_clock::now() < until) {
        }
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"timer", "fd"}));
    tasync_fd_forget(rt, p.r);
}

// The fd and its file description belong to the caller (and to whoever
// shares them: a child holding the other end of a pipe, a shell sharing
// STDIN): waiting for readiness must not make a blocking fd non-blocking.
TEST_F(Io, WaitingOnAnFdLeavesItsBlockingModeAlone) {
    int fds[2];
    ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, nullptr, nullptr), 0);
        EXPECT_EQ(fcntl(fds[0], F_GETFL) & O_NONBLOCK, 0) << "the backend changed the fd's file status flags";
    });
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        EXPECT_EQ(fcntl(fds[0], F_GETFL) & O_NONBLOCK, 0) << "the backend changed the fd's file status flags";
        EXPECT_EQ(write(fds[1], "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    tasync_fd_forget(rt, fds[0]);
    close(fds[0]);
    close(fds[1]);
}

TEST_F(Io, PingPongBetweenTwoCoroutines) {
    Pipe a, b;
    const int rounds = 1000;
    int got = 0;
    go([&](tasync_coroutine_t *) {  // pinger
        char c = 'x';
        for (int i = 0; i < rounds; ++i) {
            EXPECT_EQ(write(a.w, &c, 1), 1);
            ASSERT_EQ(tasync_await_fd(rt, b.r, TASYNC_IO_READABLE, nullptr, nullptr, nullptr), 0);
            ASSERT_EQ(read(b.r, &c, 1), 1);
            ++got;
        }
    });
    go([&](tasync_coroutine_t *) {  // ponger
        char c;
        for (int i = 0; i < rounds; ++i) {
            ASSERT_EQ(tasync_await_fd(rt, a.r, TASYNC_IO_READABLE, nullptr, nullptr, nullptr), 0);
            ASSERT_EQ(read(a.r, &c, 1), 1);
            EXPECT_EQ(write(b.w, &c, 1), 1);
        }
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, rounds);
    tasync_fd_forget(rt, a.r);
    tasync_fd_forget(rt, b.r);
}

TEST_F(Io, SeveralWaitersOnOneFdWithDifferentInterests) {
    Pipe p;
    for (int i = 0; i < 3; ++i) {
        go([&, i](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_await_fd(rt, p.r, TASYNC_IO_READABLE, nullptr, nullptr, nullptr), 0);
            out.push_back("reader" + std::to_string(i));
        });
    }
    go([&](tasync_coroutine_t *) {
        unsigned revents = 0;
        EXPECT_EQ(tasync_await_fd(rt, p.w, TASYNC_IO_WRITABLE, nullptr, &revents, nullptr), 0);
        EXPECT_TRUE(revents & TASYNC_IO_WRITABLE);
        out.push_back("writer");
        EXPECT_EQ(write(p.w, "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"writer", "reader0", "reader1", "reader2"}));
    tasync_fd_forget(rt, p.r);
    tasync_fd_forget(rt, p.w);
}

TEST_F(Io, FdForgetWakesWaitersWithEbadf) {
    Pipe p;
    int rc = 0;
    go([&](tasync_coroutine_t *) { rc = tasync_await_fd(rt, p.r, TASYNC_IO_READABLE, nullptr, nullptr, nullptr); });
    tasync_yield(rt, nullptr);
    tasync_fd_forget(rt, p.r);
    close(p.r);
    p.r = -1;
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, -EBADF);
}

TEST_F(Io, FdWaitIsCancellable) {
    Pipe p;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_await_fd(rt, p.r, TASYNC_IO_READABLE, nullptr, nullptr, nullptr), -ECANCELED);
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
    tasync_fd_forget(rt, p.r);
}

TEST_F(Io, FdWaitWithCancellationAwaitable) {
    Pipe p;
    tasync_awaitable_t *t = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 5 * kMs, &t), 0);
    EXPECT_EQ(tasync_await_fd(rt, p.r, TASYNC_IO_READABLE, t, nullptr, nullptr), TASYNC_EAWAIT_CANCELLED);
    tasync_awaitable_release(t);
    EXPECT_EQ(run(), 0);
    tasync_fd_forget(rt, p.r);
}

TEST_F(Io, BadFdGivesAnErrorNotACrash) {
    void *e = nullptr;
    int rc = tasync_await_fd(rt, 987654, TASYNC_IO_READABLE, nullptr, nullptr, &e);
    EXPECT_LT(rc, 0);
    EXPECT_NE(e, nullptr);
    host.release(static_cast<Error *>(e));
    EXPECT_EQ(run(), 0);
}

// Wakeup from another thread: post() from a thread while the runtime blocks.
TEST_F(Io, PostFromAnotherThreadWakesTheRuntime) {
    tasync_awaitable_t *fut = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &fut), 0);
    tasync_runtime_ref(rt);  // the thread will post later
    std::thread th([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        tasync_runtime_post(rt, [](void *f) { tasync_future_resolve(static_cast<tasync_awaitable_t *>(f), nullptr); }, fut);
        tasync_runtime_unref(rt);
    });
    EXPECT_EQ(tasync_await(rt, fut, nullptr, nullptr, nullptr), 0);
    th.join();
    tasync_awaitable_release(fut);
    EXPECT_EQ(run(), 0);
}

TEST_F(Io, ManyPostsUnderLoadAllArrive) {
    std::atomic<int> done{0};
    int received = 0;
    const int threads = 4, per = 2000;
    struct Ctx {
        int *received;
    } ctx{&received};
    tasync_runtime_ref(rt);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) {
        ts.emplace_back([&] {
            for (int i = 0; i < per; ++i)
                tasync_runtime_post(rt, [](void *p) { ++*static_cast<Ctx *>(p)->received; }, &ctx);
            if (done.fetch_add(1) == threads - 1) tasync_runtime_unref(rt);
        });
    }
    // Keep the scheduler busy meanwhile.
    for (int i = 0; i < 4; ++i)
        go([&](tasync_coroutine_t *) {
            for (int k = 0; k < 200; ++k) tasync_yield(rt, nullptr);
        });
    EXPECT_EQ(run(), 0);
    for (auto &t : ts) t.join();
    EXPECT_EQ(received, threads * per);
}

TEST_F(Io, OffloadRunsOnAnotherThread) {
    struct Job {
        std::thread::id id;
        int result = 0;
    } job;
    auto me = std::this_thread::get_id();
    EXPECT_EQ(tasync_offload(rt, [](void *d) {
        auto *j = static_cast<Job *>(d);
        j->id = std::this_thread::get_id();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        j->result = 99;
    }, &job, nullptr, nullptr), 0);
    EXPECT_EQ(job.result, 99);
    EXPECT_NE(job.id, me);
    EXPECT_EQ(run(), 0);
}

TEST_F(Io, OffloadsRunConcurrently) {
    std::atomic<int> running{0}, peak{0};
    struct Ctx {
        std::atomic<int> *running, *peak;
    } ctx{&running, &peak};
    for (int i = 0; i < 4; ++i) {
        go([&](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_offload(rt, [](void *d) {
                auto *c = static_cast<Ctx *>(d);
                int now = ++*c->running;
                int p = c->peak->load();
                while (now > p && !c->peak->compare_exchange_weak(p, now)) {}
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                --*c->running;
            }, &ctx, nullptr, nullptr), 0);
        });
    }
    EXPECT_EQ(run(), 0);
    EXPECT_GE(peak.load(), 2);
}
