// Cancellation of coroutines: rules C7 and C8.
#include <cerrno>

#include "test_host.hpp"

using namespace tasync_test;

class Cancel : public RuntimeTest {};

// C7: not started -> never starts; completes as cancelled.
TEST_F(Cancel, C7_BeforeStartNeverRuns) {
    bool ran = false;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { ran = true; });
    EXPECT_EQ(tasync_coroutine_cancel(co, nullptr), 0);
    uint32_t f = tasync_coroutine_flags(co);
    EXPECT_TRUE(f & TASYNC_CO_COMPLETED);
    EXPECT_TRUE(f & TASYNC_CO_CANCELLED);
    EXPECT_FALSE(f & TASYNC_CO_STARTED);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
    host.release(static_cast<Error *>(e));
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(ran);
    tasync_coroutine_release(co);
}

// C7: suspended -> resumed with the CancellationError at its suspension
// point (seed 001: "Caught exception: cancelled at ...").
TEST_F(Cancel, C7_WhileSuspendedThrowsAtTheSuspensionPoint) {
    host.location_file = "seed.php";
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        out.push_back("Hello, World!");
        void *e = nullptr;
        int rc = tasync_yield(rt, &e);
        EXPECT_EQ(rc, -ECANCELED);
        out.push_back("Caught exception: " + message_of(e));
        host.release(static_cast<Error *>(e));
        out.push_back("Goodbye, World!");
    });
    tasync_yield(rt, nullptr);  // pass control to the coroutine
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0], "Hello, World!");
    EXPECT_EQ(out[1].rfind("Caught exception: cancelled at seed.php:", 0), 0u) << out[1];
    EXPECT_EQ(out[2], "Goodbye, World!");
    // It handled the cancellation and returned: it still ends cancelled.
    EXPECT_TRUE(tasync_coroutine_flags(co) & TASYNC_CO_CANCELLED);
    tasync_coroutine_release(co);
}

TEST_F(Cancel, C7_WhileWaitingOnATimer) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        void *e = nullptr;
        EXPECT_EQ(tasync_delay(rt, 60000 * kMs, nullptr, &e), -ECANCELED);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
        host.release(static_cast<Error *>(e));
        out.push_back("cancelled");
    });
    tasync_yield(rt, nullptr);
    Error *mine = host.error("Task was cancelled", TASYNC_ERROR_CANCELLATION);
    uint64_t start = tasync_runtime_now(rt);
    tasync_coroutine_cancel(co, mine);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, mine) << "await throws the CancellationError given to cancel()";
    host.release(static_cast<Error *>(e));
    host.release(mine);
    EXPECT_LT(tasync_runtime_now(rt) - start, 1000 * kMs);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"cancelled"}));
    tasync_coroutine_release(co);
}

// C7: an unhandled cancellation ends the coroutine as cancelled.
TEST_F(Cancel, C7_UnhandledCancellationEndsAsCancelled) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        void *e = nullptr;
        if (tasync_delay(rt, 60000 * kMs, nullptr, &e) != 0) {
            tasync_coroutine_set_error(self, e);  // "rethrow"
            host.release(static_cast<Error *>(e));
        }
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    uint32_t f = tasync_coroutine_flags(co);
    EXPECT_TRUE(f & TASYNC_CO_CANCELLED);
    EXPECT_TRUE(f & TASYNC_CO_COMPLETED);
    tasync_coroutine_release(co);
}

// C7: completed -> nothing happens.
TEST_F(Cancel, C7_AfterCompletionDoesNothing) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        Value *v = host.value(1);
        tasync_coroutine_set_result(self, v);
        host.release(v);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_coroutine_cancel(co, nullptr), 0);
    uint32_t f = tasync_coroutine_flags(co);
    EXPECT_FALSE(f & TASYNC_CO_CANCELLED);
    EXPECT_FALSE(f & TASYNC_CO_CANCEL_REQUESTED);
    void *v = nullptr;
    ASSERT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, &v, nullptr), 0);
    EXPECT_EQ(static_cast<Value *>(v)->v, 1);
    host.release(static_cast<Value *>(v));
    tasync_coroutine_release(co);
}

// C8: self-cancellation keeps running until return; await then throws.
TEST_F(Cancel, C8_SelfCancelKeepsRunning) {
    tasync_coroutine_t *co = nullptr;
    co = spawn([&](tasync_coroutine_t *self) {
        Error *e = host.error("Self-cancelled", TASYNC_ERROR_CANCELLATION);
        tasync_coroutine_cancel(self, e);
        host.release(e);
        out.push_back("This still executes");
        Value *v = host.value(3);
        tasync_coroutine_set_result(self, v);  // return "completed"
        host.release(v);
    });
    void *v = nullptr, *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, &v, &e), TASYNC_EFAILED);
    EXPECT_EQ(v, nullptr);
    EXPECT_EQ(message_of(e), "Self-cancelled");
    host.release(static_cast<Error *>(e));
    EXPECT_EQ(out, (std::vector<std::string>{"This still executes"}));
    EXPECT_TRUE(tasync_coroutine_flags(co) & TASYNC_CO_CANCELLED);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
}

// The first cancellation wins; later ones are ignored.
TEST_F(Cancel, SecondCancelIsIgnored) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { tasync_delay(rt, 60000 * kMs, nullptr, nullptr); });
    tasync_yield(rt, nullptr);
    Error *first = host.error("first", TASYNC_ERROR_CANCELLATION);
    Error *second = host.error("second", TASYNC_ERROR_CANCELLATION);
    tasync_coroutine_cancel(co, first);
    tasync_coroutine_cancel(co, second);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, first);
    host.release(static_cast<Error *>(e));
    host.release(first);
    host.release(second);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
}

// A coroutine woken with a result but cancelled before it ran sees the
// cancellation at that suspension point.
TEST_F(Cancel, C7_CancelAfterWakeBeforeRunIsDelivered) {
    tasync_awaitable_t *fut = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &fut), 0);
    int rc = 0;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { rc = tasync_await(rt, fut, nullptr, nullptr, nullptr); });
    tasync_yield(rt, nullptr);
    tasync_future_resolve(fut, nullptr);  // co is now ready
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, -ECANCELED);
    tasync_awaitable_release(fut);
    tasync_coroutine_release(co);
}

TEST_F(Cancel, CancellationIsDeliveredOnlyOnce) {
    std::vector<int> rcs;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        rcs.push_back(tasync_delay(rt, 60000 * kMs, nullptr, nullptr));
        // Cleaning up after the cancellation may suspend freely.
        rcs.push_back(tasync_delay(rt, 1 * kMs, nullptr, nullptr));
        rcs.push_back(tasync_yield(rt, nullptr));
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rcs, (std::vector<int>{-ECANCELED, 0, 0}));
    tasync_coroutine_release(co);
}
