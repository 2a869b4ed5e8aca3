// Await (C4), await with a cancellation awaitable (C5), self-await (C6),
// futures and timeouts (C21).
#include "test_host.hpp"

using namespace tasync_test;

class Await : public RuntimeTest {};

TEST_F(Await, C4_ReturnsTheResult) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        Value *v = host.value(42);
        tasync_coroutine_set_result(self, v);
        host.release(v);
    });
    void *v = nullptr, *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, &v, &e), 0);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(static_cast<Value *>(v)->v, 42);
    EXPECT_EQ(e, nullptr);
    host.release(static_cast<Value *>(v));
    // Awaiting a completed coroutine again returns the same result at once.
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, &v, nullptr), 0);
    EXPECT_EQ(static_cast<Value *>(v)->v, 42);
    host.release(static_cast<Value *>(v));
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
}

// Rule C4: the same error object to every awaiter, every time.
TEST_F(Await, C4_RethrowsTheSameErrorToEveryAwaiter) {
    tasync_coroutine_t *failing = spawn([&](tasync_coroutine_t *self) {
        tasync_yield(rt, nullptr);
        Error *e = host.error("Error occurred");
        tasync_coroutine_set_error(self, e);
        host.release(e);
    });
    std::vector<void *> seen;
    for (int i = 0; i < 3; ++i) {
        go([&](tasync_coroutine_t *) {
            void *e = nullptr;
            EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(failing), nullptr, nullptr, &e), TASYNC_EFAILED);
            seen.push_back(e);
        });
    }
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(failing), nullptr, nullptr, &e), TASYNC_EFAILED);
    seen.push_back(e);
    EXPECT_EQ(run(), 0);
    ASSERT_EQ(seen.size(), 4u);
    for (void *s : seen) {
        EXPECT_EQ(s, seen[0]);
        EXPECT_EQ(message_of(s), "Error occurred");
    }
    void *again = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(failing), nullptr, nullptr, &again), TASYNC_EFAILED);
    EXPECT_EQ(again, seen[0]);
    seen.push_back(again);
    for (void *s : seen) host.release(static_cast<Error *>(s));
    tasync_coroutine_release(failing);
}

// Rule C5: the cancellation awaitable fires first; the awaited goes on.
TEST_F(Await, C5_CancellationAwaitableFiresFirst) {
    tasync_coroutine_t *slow = spawn([&](tasync_coroutine_t *) {
        tasync_delay(rt, 30 * kMs, nullptr, nullptr);
        out.push_back("slow finished");
    });
    tasync_awaitable_t *timeout = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 5 * kMs, &timeout), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(slow), timeout, nullptr, &e), TASYNC_EAWAIT_CANCELLED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_AWAIT_CANCELLED);
    host.release(static_cast<Error *>(e));
    out.push_back("await cancelled");
    EXPECT_FALSE(tasync_coroutine_flags(slow) & TASYNC_CO_COMPLETED);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"await cancelled", "slow finished"}));
    tasync_awaitable_release(timeout);
    tasync_coroutine_release(slow);
}

TEST_F(Await, C5_AlreadyCompletedCancellationCancelsAtOnce) {
    tasync_awaitable_t *fut = nullptr, *cancel = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &fut), 0);
    ASSERT_EQ(tasync_future_create(rt, &cancel), 0);
    ASSERT_EQ(tasync_future_resolve(cancel, nullptr), 0);
    EXPECT_EQ(tasync_await(rt, fut, cancel, nullptr, nullptr), TASYNC_EAWAIT_CANCELLED);
    tasync_awaitable_release(fut);
    tasync_awaitable_release(cancel);
    EXPECT_EQ(run(), 0);
}

// Rule C6.
TEST_F(Await, C6_AwaitingItselfIsAnAsyncException) {
    int rc = 0;
    std::string msg;
    tasync_coroutine_t *co = nullptr;
    co = spawn([&](tasync_coroutine_t *self) {
        void *e = nullptr;
        rc = tasync_await(rt, tasync_coroutine_awaitable(self), nullptr, nullptr, &e);
        msg = message_of(e);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
        host.release(static_cast<Error *>(e));
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, TASYNC_ESELF_AWAIT);
    EXPECT_NE(msg.find("A coroutine cannot await itself"), std::string::npos) << msg;
    tasync_coroutine_release(co);
}

TEST_F(Await, FutureResolvedByAnotherCoroutine) {
    tasync_awaitable_t *fut = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &fut), 0);
    go([&](tasync_coroutine_t *) {
        Value *v = host.value(5);
        EXPECT_EQ(tasync_future_resolve(fut, v), 0);
        EXPECT_EQ(tasync_future_resolve(fut, v), TASYNC_EBAD_STATE);
        host.release(v);
    });
    void *v = nullptr;
    EXPECT_EQ(tasync_await(rt, fut, nullptr, &v, nullptr), 0);
    EXPECT_EQ(static_cast<Value *>(v)->v, 5);
    host.release(static_cast<Value *>(v));
    EXPECT_TRUE(tasync_awaitable_is_completed(fut));
    tasync_awaitable_release(fut);
    EXPECT_EQ(run(), 0);
}

TEST_F(Await, FutureRejected) {
    tasync_awaitable_t *fut = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &fut), 0);
    Error *err = host.error("rejected");
    EXPECT_EQ(tasync_future_reject(fut, err), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, fut, nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, err);
    host.release(static_cast<Error *>(e));
    host.release(err);
    tasync_awaitable_release(fut);
    EXPECT_EQ(run(), 0);
}

// Rule C21: a timeout completes after its delay; it keeps the program alive
// only while awaited.
TEST_F(Await, C21_TimeoutCompletesAfterItsDelay) {
    tasync_awaitable_t *t = nullptr;
    uint64_t start = tasync_runtime_now(rt);
    ASSERT_EQ(tasync_timeout_create(rt, 10 * kMs, &t), 0);
    EXPECT_EQ(tasync_await(rt, t, nullptr, nullptr, nullptr), 0);
    EXPECT_GE(tasync_runtime_now(rt) - start, 10 * kMs);
    EXPECT_TRUE(tasync_awaitable_is_completed(t));
    tasync_awaitable_release(t);
    EXPECT_EQ(run(), 0);
}

TEST_F(Await, C21_UnawaitedTimeoutDoesNotKeepTheProgramAlive) {
    tasync_awaitable_t *t = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 60000 * kMs, &t), 0);
    uint64_t start = tasync_runtime_now(rt);
    EXPECT_EQ(run(), 0);
    EXPECT_LT(tasync_runtime_now(rt) - start, 1000 * kMs);
    tasync_awaitable_release(t);
}

TEST_F(Await, DroppingTheAwaitedReferenceWhileWaitingIsSafe) {
    tasync_awaitable_t *fut = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &fut), 0);
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_await(rt, fut, nullptr, nullptr, nullptr), 0);
        out.push_back("resumed");
    });
    tasync_yield(rt, nullptr);
    tasync_future_resolve(fut, nullptr);
    tasync_awaitable_release(fut);  // the waiter keeps its own reference
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"resumed"}));
}
