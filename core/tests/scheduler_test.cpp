// FIFO scheduling, spawn/suspend order (rules C1, C2, C3) and the switch
// hooks a host relies on.
#include "test_host.hpp"

using namespace tasync_test;

class Scheduler : public RuntimeTest {};

// Rule C1: a spawned coroutine starts only when the spawner suspends.
TEST_F(Scheduler, C1_SpawnStartsWhenSpawnerSuspends) {
    go([&](tasync_coroutine_t *) { out.push_back("coroutine"); });
    out.push_back("next line");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"next line", "coroutine"}));
}

// Rule C2, seed 001 "Suspension": Hello World / Hello Universe / Goodbye ...
TEST_F(Scheduler, C2_SuspendIsFifo_SeedHelloUniverse) {
    auto example = [&](std::string name) {
        go([&, name](tasync_coroutine_t *) {
            out.push_back("Hello, " + name + "!");
            EXPECT_EQ(tasync_yield(rt, nullptr), 0);
            out.push_back("Goodbye, " + name + "!");
        });
    };
    example("World");
    example("Universe");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Hello, World!", "Hello, Universe!", "Goodbye, World!",
                                             "Goodbye, Universe!"}));
}

// Rule C3, seed 001: suspend() in the main flow.
TEST_F(Scheduler, C3_MainFlowIsACoroutine) {
    go([&](tasync_coroutine_t *) {
        out.push_back("Hello, World!");
        tasync_yield(rt, nullptr);
        out.push_back("Goodbye, World!");
    });
    tasync_coroutine_t *main = tasync_coroutine_current(rt);
    ASSERT_NE(main, nullptr);
    EXPECT_TRUE(tasync_coroutine_flags(main) & TASYNC_CO_MAIN);
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    out.push_back("Back to the main flow");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Hello, World!", "Back to the main flow", "Goodbye, World!"}));
}

// A lone coroutine's suspend returns at once.
TEST_F(Scheduler, C2_SuspendAloneReturnsImmediately) {
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scheduler, RoundRobinInterleavesManyCoroutines) {
    const int n = 5, rounds = 4;
    for (int i = 0; i < n; ++i) {
        go([&, i](tasync_coroutine_t *) {
            for (int r = 0; r < rounds; ++r) {
                out.push_back(std::to_string(r) + ":" + std::to_string(i));
                tasync_yield(rt, nullptr);
            }
        });
    }
    EXPECT_EQ(run(), 0);
    std::vector<std::string> expect;
    for (int r = 0; r < rounds; ++r)
        for (int i = 0; i < n; ++i) expect.push_back(std::to_string(r) + ":" + std::to_string(i));
    EXPECT_EQ(out, expect);
}

// Coroutines spawned by coroutines join the back of the queue.
TEST_F(Scheduler, NestedSpawnIsQueuedAtTheBack) {
    go([&](tasync_coroutine_t *) {
        out.push_back("A");
        go([&](tasync_coroutine_t *) { out.push_back("A.child"); });
        tasync_yield(rt, nullptr);
        out.push_back("A.after");
    });
    go([&](tasync_coroutine_t *) { out.push_back("B"); });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"A", "B", "A.child", "A.after"}));
}

TEST_F(Scheduler, EnterAndLeaveHooksPairUp) {
    host.trace_switches = true;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { tasync_yield(rt, nullptr); });
    uint64_t id = tasync_coroutine_id(co);
    EXPECT_EQ(run(), 0);
    host.trace_switches = false;
    std::string c = std::to_string(id);
    // A yield with nobody else runnable does not switch at all.
    EXPECT_EQ(host.trace, (std::vector<std::string>{"leave 0", "enter " + c, "leave " + c, "enter 0"}));
    tasync_coroutine_release(co);
}

TEST_F(Scheduler, C10_StateFlagsFollowTheLifecycle) {
    tasync_coroutine_t *self_seen = nullptr;
    uint32_t inside = 0;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        self_seen = tasync_coroutine_current(rt);
        inside = tasync_coroutine_flags(self);
        tasync_yield(rt, nullptr);
    });
    uint32_t f = tasync_coroutine_flags(co);
    EXPECT_TRUE(f & TASYNC_CO_QUEUED);
    EXPECT_FALSE(f & TASYNC_CO_STARTED);
    EXPECT_FALSE(f & TASYNC_CO_COMPLETED);
    tasync_yield(rt, nullptr);  // it runs and suspends
    EXPECT_EQ(self_seen, co);
    EXPECT_TRUE(inside & TASYNC_CO_RUNNING);
    f = tasync_coroutine_flags(co);
    EXPECT_TRUE(f & TASYNC_CO_STARTED);
    EXPECT_TRUE(f & TASYNC_CO_SUSPENDED);
    EXPECT_FALSE(f & TASYNC_CO_RUNNING);
    EXPECT_EQ(run(), 0);
    f = tasync_coroutine_flags(co);
    EXPECT_TRUE(f & TASYNC_CO_COMPLETED);
    EXPECT_FALSE(f & TASYNC_CO_CANCELLED);
    EXPECT_FALSE(f & TASYNC_CO_SUSPENDED);
    tasync_coroutine_release(co);
}

TEST_F(Scheduler, IdsAreUniqueAndIncreasing) {
    tasync_coroutine_t *a = spawn([](tasync_coroutine_t *) {});
    tasync_coroutine_t *b = spawn([](tasync_coroutine_t *) {});
    EXPECT_LT(tasync_coroutine_id(a), tasync_coroutine_id(b));
    EXPECT_EQ(tasync_coroutine_id(tasync_coroutine_current(rt)), 0u);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(a);
    tasync_coroutine_release(b);
}

TEST_F(Scheduler, SpawnRecordsItsLocation) {
    host.location_line = 41;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { tasync_yield(rt, nullptr); });
    tasync_location_t loc = tasync_coroutine_spawn_location(co);
    ASSERT_NE(loc.file, nullptr);
    EXPECT_STREQ(loc.file, "test.php");
    EXPECT_EQ(loc.line, 42u);
    EXPECT_EQ(run(), 0);
    EXPECT_NE(tasync_coroutine_suspend_location(co).file, nullptr);
    tasync_coroutine_release(co);
}

TEST_F(Scheduler, ParkAndResumeWithValueOrError) {
    tasync_coroutine_t *parked = spawn([&](tasync_coroutine_t *) {
        void *v = nullptr, *e = nullptr;
        EXPECT_EQ(tasync_suspend(rt, &v, &e), 0);
        ASSERT_NE(v, nullptr);
        out.push_back("value " + std::to_string(static_cast<Value *>(v)->v));
        host.release(static_cast<Value *>(v));
        EXPECT_EQ(tasync_suspend(rt, &v, &e), TASYNC_EFAILED);
        out.push_back("error " + message_of(e));
        host.release(static_cast<Error *>(e));
    });
    tasync_yield(rt, nullptr);
    Value *v = host.value(7);
    EXPECT_EQ(tasync_resume(parked, v), 0);
    EXPECT_EQ(tasync_resume(parked, v), TASYNC_EBAD_STATE) << "already woken";
    host.release(v);
    tasync_yield(rt, nullptr);
    Error *e = host.error("boom");
    EXPECT_EQ(tasync_resume_error(parked, e), 0);
    host.release(e);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"value 7", "error boom"}));
    tasync_coroutine_release(parked);
}

TEST_F(Scheduler, SuspendOutsideACoroutineIsAnError) {
    // Reactor callbacks run outside coroutines: posting one that tries.
    int rc = 1;
    struct Ctx {
        tasync_runtime_t *rt;
        int *rc;
    } ctx{rt, &rc};
    tasync_runtime_post(
        rt,
        [](void *p) {
            auto *c = static_cast<Ctx *>(p);
            *c->rc = tasync_yield(c->rt, nullptr);
        },
        &ctx);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, TASYNC_ENOT_IN_COROUTINE);
}

// The run queue grows while a pass is in progress (every coroutine spawns
// two more): order stays FIFO and nothing is lost.
TEST_F(Scheduler, RunQueueGrowsDuringAPass) {
    int ran = 0;
    std::function<void(int)> tree = [&](int depth) {
        go([&, depth](tasync_coroutine_t *) {
            ++ran;
            if (depth < 11) {
                tree(depth + 1);
                tree(depth + 1);
            }
            tasync_yield(rt, nullptr);
        });
    };
    tree(0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(ran, (1 << 12) - 1);
}

// The reactor is polled on the runtime's own stack, not on the stack of the
// coroutine whose suspension emptied the run queue: a poll's frames are
// deep (libuv keeps a 12 KiB array of events on the stack), and running
// them on whichever coroutine suspended last touched those pages in every
// pooled stack over time (a keep-alive server's RSS grew round after round).
// A posted callback runs inside the poll.
TEST_F(Scheduler, PollRunsOffTheStackOfTheCoroutineThatSuspended) {
    struct Ctx {
        tasync_awaitable_t *fut = nullptr;
        char *lo = nullptr, *hi = nullptr;
        char *seen = nullptr;
    } ctx;
    ASSERT_EQ(tasync_future_create(rt, &ctx.fut), 0);
    int polls = 0;
    go([&](tasync_coroutine_t *co) {
        for (int round = 0; round < 3; ++round) {
            void *lo = nullptr, *hi = nullptr;
            ASSERT_EQ(tasync_coroutine_stack_bounds(co, &lo, &hi), 0);
            ctx.lo = static_cast<char *>(lo);
            ctx.hi = static_cast<char *>(hi);
            ctx.seen = nullptr;
            ASSERT_EQ(tasync_runtime_post(
                          rt,
                          [](void *p) {
                              auto *c = static_cast<Ctx *>(p);
                              char here = 0;
                              c->seen = &here;
                              tasync_future_resolve(c->fut, nullptr);
                          },
                          &ctx),
                      0);
            EXPECT_EQ(tasync_await(rt, ctx.fut, nullptr, nullptr, nullptr), 0);
            ASSERT_NE(ctx.seen, nullptr);
            EXPECT_FALSE(ctx.seen >= ctx.lo && ctx.seen < ctx.hi) << "round " << round;
            ++polls;
            tasync_awaitable_release(ctx.fut);
            ctx.fut = nullptr;
            ASSERT_EQ(tasync_future_create(rt, &ctx.fut), 0);
        }
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(polls, 3);
    tasync_awaitable_release(ctx.fut);
}
