// Rule C21 for waits that carry their own deadline (runtime.h, ABI 1.3):
// tasync_await_fd_until and tasync_await_until answer -ETIMEDOUT
// themselves when the deadline comes first, with no timeout awaitable and
// no error object; readiness, an outcome, a cancellation or a forgotten fd
// that comes first ends them as the plain waits end. Run on every backend.
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "rules.hpp"

using namespace tasync_rules;

namespace {

// A pipe whose ends the runtime forgets before they are closed.
struct Pipe {
    int fds[2] = {-1, -1};
    tasync_runtime_t *rt = nullptr;
    explicit Pipe(tasync_runtime_t *r) : rt(r) { EXPECT_EQ(pipe(fds), 0); }
    ~Pipe() {
        for (int fd : fds) {
            tasync_fd_forget(rt, fd);
            close(fd);
        }
    }
    int r() const { return fds[0]; }
    int w() const { return fds[1]; }
};

uint64_t ms_since(std::chrono::steady_clock::time_point t) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t).count());
}

}  // namespace

class Deadline : public Rules {
protected:
    uint64_t in_ms(uint64_t ms) { return tasync_runtime_now(rt) + ms * kMs; }
};

// C21: nothing comes, the deadline passes: -ETIMEDOUT, no error object, not
// before the deadline, and the coroutine is not cancelled by it.
TEST_F(Deadline, C21_AnFdWaitAnswersTimedOutItselfAtItsDeadline) {
    Pipe p(rt);
    go([&](tasync_coroutine_t *self) {
        uint64_t deadline = in_ms(30);
        unsigned revents = 77;
        void *e = reinterpret_cast<void *>(1);
        int rc = tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, deadline, nullptr, &revents, &e);
        EXPECT_EQ(rc, -ETIMEDOUT);
        EXPECT_EQ(e, nullptr) << "timed out is an answer, not an error";
        EXPECT_EQ(revents, 0u);
        EXPECT_GE(tasync_runtime_now(rt), deadline) << "never before the deadline";
        EXPECT_EQ(tasync_wait_end(rt, rc, e), -ETIMEDOUT) << "tasync_wait_end passes it through";
        EXPECT_FALSE(flags(self) & TASYNC_CO_CANCEL_REQUESTED);
        EXPECT_EQ(delay(1), 0) << "a deadline is no cancellation of the coroutine";
        say("timed out");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"timed out"}));
}

// C21: readiness before the deadline wins; the deadline is gone with the
// wait, so the program ends at once instead of at the deadline.
TEST_F(Deadline, C21_ReadinessBeforeTheDeadlineWinsAndTheDeadlineGoesWithTheWait) {
    Pipe p(rt);
    auto start = std::chrono::steady_clock::now();
    go([&](tasync_coroutine_t *) {
        unsigned revents = 0;
        void *e = nullptr;
        int rc = tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, in_ms(10000), nullptr, &revents, &e);
        EXPECT_EQ(rc, 0) << message_of(e);
        EXPECT_TRUE(revents & TASYNC_IO_READABLE);
        say("readable");
    });
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(delay(5), 0);
        EXPECT_EQ(write(p.w(), "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"readable"}));
    EXPECT_LT(ms_since(start), 5000u) << "a disarmed deadline keeps nothing alive";
}

// C21: a deadline already reached ends the wait at once, without letting
// another coroutine run, even on a ready fd (as a zero timeout checks
// nothing); 0 is no deadline.
TEST_F(Deadline, C21_ADeadlineThatPassedEndsTheWaitWithoutASwitch) {
    Pipe p(rt);
    ASSERT_EQ(write(p.w(), "x", 1), 1);
    go([&](tasync_coroutine_t *) {
        go([&](tasync_coroutine_t *) { say("other ran"); });
        uint64_t past = tasync_runtime_now(rt);
        void *e = nullptr;
        EXPECT_EQ(tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, past, nullptr, nullptr, &e), -ETIMEDOUT);
        EXPECT_EQ(e, nullptr);
        say("at once");
        unsigned revents = 0;
        EXPECT_EQ(tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, 0, nullptr, &revents, &e), 0);
        EXPECT_TRUE(revents & TASYNC_IO_READABLE) << "0: no deadline";
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"at once", "other ran"}));
}

// C21 with C8 and C18: a cancellation before the deadline ends the wait as
// a plain wait's (the error object, tasync_wait_end's rule); a forgotten fd
// ends it with -EBADF; a cancellation awaitable still works beside it.
TEST_F(Deadline, C21_CancellationAForgottenFdOrACancellationAwaitableComeFirst) {
    Pipe p(rt);
    int spare = dup(p.r());
    ASSERT_GE(spare, 0);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        void *e = nullptr;
        int rc = tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, in_ms(10000), nullptr, nullptr, &e);
        EXPECT_EQ(rc, -ECANCELED);
        EXPECT_NE(e, nullptr);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), -ECANCELED);
        say("cancelled");
    });
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        int rc = tasync_await_fd_until(rt, spare, TASYNC_IO_READABLE, in_ms(10000), nullptr, nullptr, &e);
        EXPECT_EQ(rc, -EBADF);
        release_error(e);
        say("forgotten");
    });
    go([&](tasync_coroutine_t *) {
        tasync_awaitable_t *soon = timeout_ms(5);
        void *e = nullptr;
        int rc = tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, in_ms(10000), soon, nullptr, &e);
        tasync_awaitable_release(soon);
        EXPECT_EQ(rc, TASYNC_EAWAIT_CANCELLED);
        release_error(e);
        say("cancellation awaitable");
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    tasync_fd_forget(rt, spare);
    EXPECT_EQ(run(), 0);
    close(spare);
    std::sort(out.begin(), out.end());
    EXPECT_EQ(out, (std::vector<std::string>{"cancellation awaitable", "cancelled", "forgotten"}));
    tasync_coroutine_release(co);
}

// C21 and G4: waiters of one fd keep deadlines of their own; the earliest
// times out alone, the others still get the readiness.
TEST_F(Deadline, C21_WaitersOfOneFdKeepTheirOwnDeadlines) {
    Pipe p(rt);
    for (int ms : {10, 5000, 0}) {
        go([&, ms](tasync_coroutine_t *) {
            unsigned revents = 0;
            void *e = nullptr;
            int rc = tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, ms != 0 ? in_ms(ms) : 0, nullptr, &revents,
                                           &e);
            say(std::to_string(ms) + (rc == -ETIMEDOUT ? " timed out" : rc == 0 ? " readable" : " failed"));
            release_error(e);
        });
    }
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(delay(40), 0);
        EXPECT_EQ(write(p.w(), "x", 1), 1);
    });
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"10 timed out", "5000 readable", "0 readable"}));
    EXPECT_LT(ms_since(start), 3000u) << "a deadline whose wait ended keeps nothing alive";
}

// C21: the fd's entry in the timer heap may fire for a wait that already
// ended; a later wait on the same fd still times out at its own deadline,
// never before.
TEST_F(Deadline, C21_ADeadlineIsNeverEarlyWhenAnEarlierWaitOfItsFdEnded) {
    Pipe p(rt);
    go([&](tasync_coroutine_t *) {
        // The first read: its deadline (20 ms) is the fd's entry; it ends
        // by readiness at once.
        ASSERT_EQ(write(p.w(), "x", 1), 1);
        unsigned revents = 0;
        EXPECT_EQ(tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, in_ms(20), nullptr, &revents, nullptr), 0);
        char c;
        ASSERT_EQ(read(p.r(), &c, 1), 1);
        // The second one waits past the first deadline, until its own.
        uint64_t deadline = in_ms(80);
        EXPECT_EQ(tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, deadline, nullptr, &revents, nullptr),
                  -ETIMEDOUT);
        EXPECT_GE(tasync_runtime_now(rt), deadline);
        say("second timed out at its own deadline");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"second timed out at its own deadline"}));
}

// C21 and C12: a wait with a deadline says so to introspection.
TEST_F(Deadline, C21_IntrospectionSeesTheDeadlineOfAnFdWait) {
    Pipe p(rt);
    uint64_t deadline = in_ms(10000);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        void *e = nullptr;
        EXPECT_EQ(tasync_await_fd_until(rt, p.r(), TASYNC_IO_READABLE, deadline, nullptr, nullptr, &e), 0);
    });
    tasync_yield(rt, nullptr);
    tasync_wait_info_t info{};
    info.size = sizeof(info);
    ASSERT_EQ(tasync_coroutine_wait_info(co, &info), 0);
    EXPECT_EQ(info.kind, static_cast<uint32_t>(TASYNC_WAIT_FD));
    EXPECT_EQ(info.fd, p.r());
    EXPECT_EQ(info.deadline_ns, deadline);
    ASSERT_EQ(write(p.w(), "x", 1), 1);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
}

// C21 with C4 and C5: an await with a deadline gets the outcome that comes
// first; a timed-out await leaves what it awaited going on; an outcome
// already there wins over a deadline already passed.
TEST_F(Deadline, C21_AnAwaitWithADeadlineGetsTheOutcomeOrTimesOut) {
    tasync_awaitable_t *late = nullptr;
    tasync_awaitable_t *soon = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &late), 0);
    ASSERT_EQ(tasync_future_create(rt, &soon), 0);
    go([&](tasync_coroutine_t *) {
        void *v = nullptr, *e = nullptr;
        int rc = tasync_await_until(rt, late, in_ms(20), nullptr, &v, &e);
        EXPECT_EQ(rc, -ETIMEDOUT);
        EXPECT_EQ(v, nullptr);
        EXPECT_EQ(e, nullptr);
        EXPECT_FALSE(tasync_awaitable_is_completed(late)) << "what was awaited goes on";
        rc = tasync_await_until(rt, soon, in_ms(10000), nullptr, &v, &e);
        EXPECT_EQ(rc, 0) << message_of(e);
        ASSERT_NE(v, nullptr);
        EXPECT_EQ(static_cast<tasync_test::Value *>(v)->v, 42);
        release_value(v);
        rc = tasync_await_until(rt, soon, tasync_runtime_now(rt), nullptr, &v, &e);
        EXPECT_EQ(rc, 0) << "an outcome already there wins over a passed deadline";
        release_value(v);
        EXPECT_EQ(tasync_await_until(rt, late, tasync_runtime_now(rt), nullptr, &v, &e), -ETIMEDOUT);
        say("done");
    });
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(delay(40), 0);
        tasync_test::Value *v = host.value(42);
        EXPECT_EQ(tasync_future_resolve(soon, v), 0);
        release_value(v);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"done"}));
    tasync_awaitable_release(late);
    tasync_awaitable_release(soon);
}

// C21 with G4: a wait woken by readiness whose fd is forgotten (and its
// number reused by a new fd) before it resumes leaves the fd's new watch
// and its deadlines alone.
TEST_F(Deadline, C21_AWaitWokenBeforeItsFdIsForgottenLeavesTheNextWatchAlone) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    int reused[2] = {-1, -1};
    go([&](tasync_coroutine_t *) {
        unsigned revents = 0;
        EXPECT_EQ(tasync_await_fd_until(rt, fds[0], TASYNC_IO_READABLE, in_ms(10000), nullptr, &revents, nullptr), 0);
        say("woken by readiness");
    });
    go([&](tasync_coroutine_t *) {
        ASSERT_EQ(write(fds[1], "x", 1), 1);
        // The reader is woken at the poll that ends this pass; this
        // coroutine, queued first, runs again before it resumes.
        tasync_yield(rt, nullptr);
        tasync_fd_forget(rt, fds[0]);
        close(fds[0]);
        ASSERT_EQ(pipe(reused), 0);
        EXPECT_EQ(reused[0], fds[0]) << "the lowest free number comes back";
        go([&](tasync_coroutine_t *) {
            uint64_t deadline = in_ms(30);
            EXPECT_EQ(tasync_await_fd_until(rt, reused[0], TASYNC_IO_READABLE, deadline, nullptr, nullptr, nullptr),
                      -ETIMEDOUT);
            EXPECT_GE(tasync_runtime_now(rt), deadline);
            say("the new fd's wait timed out");
        });
        go([&](tasync_coroutine_t *) {
            EXPECT_EQ(delay(5), 0);
            say("a delay beside it ends");
        });
    });
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"woken by readiness", "a delay beside it ends", "the new fd's wait timed out"}));
    EXPECT_LT(ms_since(start), 3000u);
    tasync_fd_forget(rt, reused[0]);
    close(reused[0]);
    close(reused[1]);
    close(fds[1]);
}
