// Rule C18 for the blocking functions of extensions (runtime.h, ABI 1.2):
// tasync_coroutine_suspendable says when such a function may suspend, and
// tasync_wait_end treats the end of each of its waits as the host's own
// blocking functions do. Run on every backend.
#include <unistd.h>

#include <thread>

#include "rules.hpp"

using namespace tasync_rules;

namespace {

// A host that can refuse suspension and that raises an error from
// wait_end on request, recording what it was given.
struct BlockingHost {
    bool refuse = false;
    bool raise = false;
    int asked = 0;
    int ended = 0;
    int last_rc = 0;
    bool last_error = false;  // wait_end was handed an error
    tasync_coroutine_t *last_co = nullptr;
};

BlockingHost *g_host = nullptr;

}  // namespace

class Blocking : public Rules {
protected:
    void SetUp() override {
        g_host = &bh;
        host.table.may_suspend = [](void *, tasync_coroutine_t *, void *) -> int {
            ++g_host->asked;
            return g_host->refuse ? 0 : 1;
        };
        create(nullptr);
    }
    void TearDown() override {
        Rules::TearDown();
        g_host = nullptr;
    }
    // Installs the host's wait_end (before create: the core copies the table).
    void with_wait_end() {
        tasync_runtime_destroy(rt);
        host.table.wait_end = [](void *h, tasync_coroutine_t *co, void *, int rc, void *error) -> int {
            ++g_host->ended;
            g_host->last_rc = rc;
            g_host->last_co = co;
            g_host->last_error = error != nullptr;
            if (error != nullptr) static_cast<tasync_test::TestHost *>(h)->release(static_cast<Error *>(error));
            return g_host->raise ? TASYNC_EHOST_RAISED : rc;
        };
        create(nullptr);
    }
    BlockingHost bh;
};

// C18: the main coroutine and spawned ones may suspend; a callback run
// outside any coroutine, another thread, and a refusing host may not.
TEST_F(Blocking, C18_SuspendableOnlyInsideCoroutinesTheHostAllows) {
    EXPECT_EQ(tasync_coroutine_suspendable(rt), tasync_coroutine_current(rt)) << "the main flow is a coroutine";
    EXPECT_EQ(tasync_coroutine_suspendable(nullptr), tasync_coroutine_current(rt)) << "NULL: this thread's runtime";
    tasync_coroutine_t *seen = nullptr;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        seen = tasync_coroutine_suspendable(rt);
        EXPECT_EQ(seen, self);
    });
    tasync_coroutine_t *in_callback = reinterpret_cast<tasync_coroutine_t *>(1);
    tasync_timer_t *t = nullptr;
    ASSERT_EQ(tasync_timer_create(rt, [](tasync_timer_t *, void *d) {
        *static_cast<tasync_coroutine_t **>(d) = tasync_coroutine_suspendable(nullptr);
    }, &in_callback, &t), 0);
    ASSERT_EQ(tasync_timer_start(t, 1 * kMs, 0), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(seen, co);
    EXPECT_EQ(in_callback, nullptr) << "a timer callback runs outside any coroutine";
    tasync_timer_destroy(t);

    bh.refuse = true;
    int asked = bh.asked;
    EXPECT_EQ(tasync_coroutine_suspendable(rt), nullptr) << "the host refuses";
    EXPECT_EQ(bh.asked, asked + 1);
    bh.refuse = false;

    tasync_coroutine_t *other = reinterpret_cast<tasync_coroutine_t *>(1);
    tasync_runtime_t *mine = rt;
    std::thread th([&] { other = tasync_coroutine_suspendable(mine); });
    th.join();
    EXPECT_EQ(other, nullptr) << "another thread's runtime";
    tasync_coroutine_release(co);
}

// C18 without a host wait_end: a cancelled wait is reported to the caller
// (-ECANCELED) and the cancellation is thrown at the next suspension.
TEST_F(Blocking, C18_WaitEndLeavesACancellationForTheNextSuspension) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        ASSERT_NE(tasync_coroutine_suspendable(rt), nullptr);
        void *e = nullptr;
        int rc = tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, nullptr, &e);
        EXPECT_NE(e, nullptr);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), -ECANCELED) << "the call fails as documented";
        say("query failed");
        EXPECT_EQ(delay(60000), -ECANCELED) << "delivered at the next suspension";
        say("then cancelled");
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"query failed", "then cancelled"}));
    EXPECT_TRUE(tasync_coroutine_flags(co) & TASYNC_CO_CANCELLED);
    tasync_fd_forget(rt, fds[0]);
    close(fds[0]);
    close(fds[1]);
    tasync_coroutine_release(co);
}

// C18 without a host wait_end: other outcomes pass through unchanged and
// their error is released (the leak check of TearDown proves it).
TEST_F(Blocking, C18_WaitEndPassesOtherOutcomesThrough) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    ASSERT_EQ(write(fds[1], "x", 1), 1);
    go([&](tasync_coroutine_t *) {
        unsigned revents = 0;
        void *e = nullptr;
        int rc = tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, &revents, &e);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), 0);
        EXPECT_TRUE(revents & TASYNC_IO_READABLE);
        // A deadline: the timeout awaitable fires first.
        char c;
        ASSERT_EQ(read(fds[0], &c, 1), 1);
        tasync_awaitable_t *deadline = timeout_ms(5);
        rc = tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, deadline, &revents, &e);
        tasync_awaitable_release(deadline);
        EXPECT_NE(e, nullptr);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), TASYNC_EAWAIT_CANCELLED);
        EXPECT_EQ(delay(1), 0) << "a deadline is no cancellation of the coroutine";
        say("done");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"done"}));
    tasync_fd_forget(rt, fds[0]);
    close(fds[0]);
    close(fds[1]);
}

// C18 with a host wait_end: the host decides, receives the coroutine, the
// code and the error, and can make the caller return at once.
TEST_F(Blocking, C18_WaitEndDefersToTheHost) {
    with_wait_end();
    go([&](tasync_coroutine_t *self) {
        void *e = nullptr;
        int rc = tasync_offload(rt, [](void *) {}, nullptr, nullptr, &e);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), 0);
        EXPECT_EQ(bh.ended, 1);
        EXPECT_EQ(bh.last_co, self);
        bh.raise = true;
        rc = tasync_offload(rt, [](void *) {}, nullptr, nullptr, &e);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), TASYNC_EHOST_RAISED);
        EXPECT_EQ(bh.last_rc, 0);
        bh.raise = false;
        say("done");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"done"}));
    EXPECT_EQ(bh.ended, 2);
    EXPECT_STREQ(tasync_err_name(TASYNC_EHOST_RAISED), "TASYNC_EHOST_RAISED");
}

// C18 with a host wait_end: the core applies the rule before the host. The
// first call a cancellation ends fails quietly (the host is handed no error:
// the cancellation is pending again, so the next wait ends at once); a
// coroutine that went on and fails a call for the same cancellation again
// ignored it, and the host is handed it to raise.
TEST_F(Blocking, C18_TheHostRaisesACancellationOnlyOnceIgnored) {
    with_wait_end();
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        void *e = nullptr;
        int rc = tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, nullptr, &e);
        EXPECT_EQ(rc, -ECANCELED);
        EXPECT_EQ(tasync_wait_end(rt, rc, e), -ECANCELED) << "the call fails as documented";
        EXPECT_FALSE(bh.last_error) << "the first failed call raises nothing";
        say("first call failed");
        // The coroutine ignores the failure and blocks again (the deadline
        // only keeps a broken core from hanging the test).
        tasync_awaitable_t *deadline = timeout_ms(5000);
        e = nullptr;
        rc = tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, deadline, nullptr, &e);
        tasync_awaitable_release(deadline);
        EXPECT_EQ(rc, -ECANCELED) << "the cancellation was pending again";
        EXPECT_EQ(tasync_wait_end(rt, rc, e), -ECANCELED);
        EXPECT_TRUE(bh.last_error) << "ignored once: handed to the host to raise";
        say("second call raised");
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"first call failed", "second call raised"}));
    EXPECT_EQ(bh.ended, 2);
    tasync_fd_forget(rt, fds[0]);
    close(fds[0]);
    close(fds[1]);
    tasync_coroutine_release(co);
}
