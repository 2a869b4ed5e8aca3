// Rules C4-C21, the parts that are not about PHP syntax.
#include <unistd.h>

#include <atomic>

#include "rules.hpp"

using namespace tasync_rules;

class Coroutine : public Rules {};

// ---------------------------------------------------------------------- C4

TEST_F(Coroutine, C4_EveryAwaiterGetsTheSameErrorEveryTime) {
    Error *thrown = nullptr;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        delay(1);
        thrown = exception("Error");
        tasync_coroutine_set_error(self, thrown);
    });
    std::vector<void *> got;
    for (int i = 0; i < 3; ++i) {
        go([&](tasync_coroutine_t *) {
            void *e = nullptr;
            EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
            got.push_back(e);
            release_error(e);
        });
    }
    EXPECT_EQ(run(), 0) << "awaited: the error does not reach the global scope";
    void *again = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &again), TASYNC_EFAILED);
    got.push_back(again);
    release_error(again);
    EXPECT_EQ(got, (std::vector<void *>{thrown, thrown, thrown, thrown}));
    host.release(thrown);
    tasync_coroutine_release(co);
}

TEST_F(Coroutine, C4_AwaitAnyCountsAsAwaitingEveryone) {
    tasync_coroutine_t *slow = spawn([&](tasync_coroutine_t *) { delay(20); });
    tasync_coroutine_t *failing = spawn([&](tasync_coroutine_t *self) { fail(self, "handled by await_any"); });
    tasync_awaitable_t *both[2] = {tasync_coroutine_awaitable(slow), tasync_coroutine_awaitable(failing)};
    EXPECT_EQ(tasync_await_any(rt, both, 2, nullptr, nullptr), 1);
    void *v = nullptr, *e = nullptr;
    EXPECT_EQ(tasync_awaitable_outcome(both[1], &v, &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "handled by await_any");
    EXPECT_EQ(tasync_await_any(rt, both, 1, nullptr, nullptr), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    tasync_coroutine_release(slow);
    tasync_coroutine_release(failing);
}

// ---------------------------------------------------------------------- C5

TEST_F(Coroutine, C5_CancellationFiresFirstAndTheAwaitedGoesOn) {
    tasync_coroutine_t *work = spawn([&](tasync_coroutine_t *) {
        delay(20);
        say("work finished");
    });
    tasync_coroutine_t *canceller = spawn([&](tasync_coroutine_t *) { delay(2); });
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(work), tasync_coroutine_awaitable(canceller), nullptr, &e),
              TASYNC_EAWAIT_CANCELLED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_AWAIT_CANCELLED);
    release_error(e);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"work finished"}));
    tasync_coroutine_release(work);
    tasync_coroutine_release(canceller);
}

// ---------------------------------------------------------------------- C6

TEST_F(Coroutine, C6_AwaitingItselfIsAnAsyncException) {
    host.location_line = 10;
    tasync_coroutine_t *co = nullptr;
    co = spawn([&](tasync_coroutine_t *self) {  // spawned at test.php:11
        void *e = nullptr;
        EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(self), nullptr, nullptr, &e), TASYNC_ESELF_AWAIT);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
        say(message_of(e));
        release_error(e);
        tasync_awaitable_t *list[1] = {tasync_coroutine_awaitable(self)};
        EXPECT_EQ(tasync_await_any(rt, list, 1, nullptr, nullptr), TASYNC_ESELF_AWAIT);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"A coroutine cannot await itself. Coroutine spawned at test.php:11"}));
    tasync_coroutine_release(co);
}

// ---------------------------------------------------------------------- C7

TEST_F(Coroutine, C7_CancelBeforeStartWhileSuspendedAfterCompletion) {
    bool ran = false;
    tasync_coroutine_t *never = spawn([&](tasync_coroutine_t *) { ran = true; });
    tasync_coroutine_t *waiting = spawn([&](tasync_coroutine_t *) {
        void *e = nullptr;
        EXPECT_EQ(tasync_delay(rt, 60000 * kMs, nullptr, &e), -ECANCELED);
        say("resumed with " + message_of(e));
        release_error(e);
    });
    tasync_coroutine_t *done = spawn([&](tasync_coroutine_t *) {});
    EXPECT_EQ(tasync_coroutine_cancel(never, nullptr), 0);
    tasync_yield(rt, nullptr);
    Error *why = cancellation("Task was cancelled");
    EXPECT_EQ(tasync_coroutine_cancel(waiting, why), 0);
    EXPECT_EQ(tasync_coroutine_cancel(done, why), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(ran);
    EXPECT_EQ(out, (std::vector<std::string>{"resumed with Task was cancelled"}));
    EXPECT_TRUE(flags(never) & TASYNC_CO_CANCELLED);
    EXPECT_TRUE(flags(waiting) & TASYNC_CO_CANCELLED);
    EXPECT_FALSE(flags(done) & TASYNC_CO_CANCELLED);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(waiting), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, why) << "await throws that CancellationError";
    release_error(e);
    host.release(why);
    for (auto *c : {never, waiting, done}) tasync_coroutine_release(c);
}

// ---------------------------------------------------------------------- C8

TEST_F(Coroutine, C8_SelfCancellationKeepsRunningAndEndsCancelled) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        Error *e = cancellation("Self-cancelled");
        tasync_coroutine_cancel(self, e);
        host.release(e);
        EXPECT_TRUE(flags(self) & TASYNC_CO_CANCEL_REQUESTED);
        say("This still executes");
        Value *v = host.value(42);
        tasync_coroutine_set_result(self, v);  // return "completed"
        host.release(v);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"This still executes"}));
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "Self-cancelled");
    release_error(e);
    tasync_coroutine_release(co);
}

// C8 with runtime.h's tasync_offload: a coroutine that cancelled itself
// (or was cancelled while it ran) and then offloads work gets the
// cancellation at that suspension, and the work never starts: it is not
// handed to a worker that might pick it up before the take-back (libuv's
// pool starts queued work at once).
TEST_F(Coroutine, C8_OffloadCalledWithACancellationPendingNeverStartsItsWork) {
    std::atomic<int> ran{0};
    auto work = [](void *p) { static_cast<std::atomic<int> *>(p)->fetch_add(1); };
    int rc = 1;
    void *got = nullptr;
    Error *why = cancellation("Self-cancelled");
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        tasync_coroutine_cancel(self, why);
        for (int i = 0; i < 20 && rc != -ECANCELED; ++i) {
            release_error(got);
            got = nullptr;
            rc = tasync_offload(rt, work, &ran, nullptr, &got);
        }
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, -ECANCELED);
    EXPECT_EQ(ran.load(), 0) << "the work ran although the cancellation was pending when it was offered";
    EXPECT_EQ(got, why) << "got " << message_of(got) << " instead of the coroutine's own cancellation";
    release_error(got);
    host.release(why);
    tasync_coroutine_release(co);
}

// --------------------------------------------------------------------- C10

TEST_F(Coroutine, C10_ZombieAndPendingCancellationStates) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        tasync_protect_begin(rt);
        delay(5);
        void *e = nullptr;
        tasync_protect_end(rt, &e);
        release_error(e);
    }, s);
    EXPECT_TRUE(flags(co) & TASYNC_CO_QUEUED);
    tasync_yield(rt, nullptr);
    EXPECT_TRUE(flags(co) & TASYNC_CO_SUSPENDED);
    EXPECT_TRUE(flags(co) & TASYNC_CO_PROTECTED);
    tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    EXPECT_TRUE(flags(co) & TASYNC_CO_ZOMBIE);
    tasync_coroutine_cancel(co, nullptr);
    uint32_t f = flags(co);
    EXPECT_TRUE(f & TASYNC_CO_CANCEL_REQUESTED) << "pending cancellation";
    EXPECT_FALSE(f & TASYNC_CO_COMPLETED);
    EXPECT_EQ(run(), 0);
    f = flags(co);
    EXPECT_TRUE(f & TASYNC_CO_COMPLETED);
    EXPECT_TRUE(f & TASYNC_CO_CANCELLED);
    tasync_coroutine_release(co);
}

// --------------------------------------------------------------------- C11

TEST_F(Coroutine, C11_OnFinallyRunsEachHandlerInItsOwnCoroutine) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        delay(2);
        fail(self, "Task 1");
    });
    std::vector<uint64_t> handler_ids;
    for (int i = 0; i < 2; ++i) {
        tasync_spawn_options_t cb = callback([&, i](tasync_coroutine_t *self) {
            handler_ids.push_back(tasync_coroutine_id(self));
            EXPECT_TRUE(flags(co) & TASYNC_CO_COMPLETED);
            say("handler " + std::to_string(i));
            delay(1);  // a slow handler blocks nobody
        });
        EXPECT_EQ(tasync_coroutine_on_finally(co, &cb), 0);
    }
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    release_error(e);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"handler 0", "handler 1"}));
    ASSERT_EQ(handler_ids.size(), 2u);
    EXPECT_NE(handler_ids[0], handler_ids[1]);
    EXPECT_NE(handler_ids[0], tasync_coroutine_id(co));
    // Registering on a completed coroutine still runs.
    tasync_spawn_options_t late = callback([&](tasync_coroutine_t *) { say("late handler"); });
    EXPECT_EQ(tasync_coroutine_on_finally(co, &late), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out.back(), "late handler");
    tasync_coroutine_release(co);
}

// A finally handler is a defer: the coroutine's awaiters resume only once
// every handler has finished, even one that suspends; the handler itself
// sees the final outcome.
TEST_F(Coroutine, C11_FinallyHandlersRunBeforeAwaitersResume) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        Value *v = host.value(5);
        tasync_coroutine_set_result(self, v);
        host.release(v);
    });
    tasync_spawn_options_t slow = callback([&](tasync_coroutine_t *) {
        EXPECT_TRUE(flags(co) & TASYNC_CO_COMPLETED) << "the outcome is final for the handler";
        void *v = nullptr, *e = nullptr;
        EXPECT_EQ(tasync_coroutine_outcome(co, &v, &e), 0);
        say("slow handler starts");
        delay(5);
        say("slow handler ends");
    });
    tasync_spawn_options_t quick = callback([&](tasync_coroutine_t *) { say("quick handler"); });
    ASSERT_EQ(tasync_coroutine_on_finally(co, &slow), 0);
    ASSERT_EQ(tasync_coroutine_on_finally(co, &quick), 0);
    go([&](tasync_coroutine_t *) {
        void *v = nullptr;
        EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, &v, nullptr), 0);
        say("awaiter resumed with " + std::to_string(static_cast<Value *>(v)->v));
        release_value(v);
    });
    void *v = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, &v, nullptr), 0);
    release_value(v);
    say("main resumed");
    EXPECT_EQ(run(), 0);
    // Awaiters resume in the order they started waiting: main first.
    EXPECT_EQ(out, (std::vector<std::string>{"slow handler starts", "quick handler", "slow handler ends",
                                             "main resumed", "awaiter resumed with 5"}));
    tasync_coroutine_release(co);
}

// A handler may await its own coroutine (it would otherwise wait for
// itself); one registered while the others still run holds the awaiters too.
TEST_F(Coroutine, C11_AHandlerAwaitsItsCoroutineAtOnce) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "x"); });
    tasync_spawn_options_t first = callback([&](tasync_coroutine_t *) {
        void *e = nullptr;
        EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
        say("handler awaited: " + message_of(e));
        release_error(e);
        tasync_spawn_options_t added = callback([&](tasync_coroutine_t *) {
            delay(2);
            say("added handler ends");
        });
        EXPECT_EQ(tasync_coroutine_on_finally(co, &added), 0);
    });
    ASSERT_EQ(tasync_coroutine_on_finally(co, &first), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    say("main got: " + message_of(e));
    release_error(e);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"handler awaited: x", "added handler ends", "main got: x"}));
    tasync_coroutine_release(co);
}

// Cleanup is never skipped: a handler queued when graceful shutdown starts
// still starts, and shutdown does not interrupt its waits.
TEST_F(Coroutine, C11_HandlersRunThroughGracefulShutdown) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {});
    tasync_spawn_options_t cleanup = callback([&](tasync_coroutine_t *self) {
        say(delay(5) == 0 ? "cleanup slept" : "cleanup interrupted");
        say(flags(self) & TASYNC_CO_CANCEL_REQUESTED ? "asked to cancel" : "?");
    });
    ASSERT_EQ(tasync_coroutine_on_finally(co, &cleanup), 0);
    tasync_yield(rt, nullptr);  // co completes, the handler is queued
    EXPECT_EQ(tasync_runtime_shutdown(rt, nullptr), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"cleanup slept", "asked to cancel"}));
    tasync_coroutine_release(co);
}

// A handler's error goes through the error flow of the coroutine's scope
// (S10): the scope's exception handler sees it, not the global scope.
TEST_F(Coroutine, C11_AHandlersErrorGoesThroughTheOwningScope) {
    ScopeRef s(scope());
    tasync_coroutine_t *handler_co = nullptr;
    on_error(s, [&](tasync_scope_t *sc, tasync_coroutine_t *co, void *e, void **) {
        EXPECT_EQ(sc, s.get());
        handler_co = co;
        say("scope handler: " + message_of(e));
        return 0;
    });
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {}, s);
    tasync_coroutine_t *seen = nullptr;
    tasync_spawn_options_t broken = callback([&](tasync_coroutine_t *self) {
        seen = self;
        fail(self, "cleanup broke");
    });
    ASSERT_EQ(tasync_coroutine_on_finally(co, &broken), 0);
    EXPECT_EQ(await_scope(s), 0) << "the scope waits for the handlers of its coroutines";
    EXPECT_EQ(out, (std::vector<std::string>{"scope handler: cleanup broke"}));
    EXPECT_EQ(handler_co, seen);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    tasync_coroutine_release(co);
}

// --------------------------------------------------------------------- C12

TEST_F(Coroutine, C12_IntrospectionOfEveryKindOfWait) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    host.location_line = 0;
    ScopeRef s(scope());
    tasync_coroutine_t *sleeper = spawn([&](tasync_coroutine_t *) { delay(60000); });
    tasync_coroutine_t *reader = spawn([&](tasync_coroutine_t *) {
        unsigned rev = 0;
        void *e = nullptr;
        tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, &rev, &e);
        release_error(e);
    });
    tasync_coroutine_t *awaiter = spawn([&](tasync_coroutine_t *) {
        void *e = nullptr;
        tasync_await(rt, tasync_coroutine_awaitable(sleeper), nullptr, nullptr, &e);
        release_error(e);
    });
    go([&](tasync_coroutine_t *) { delay(60000); }, s);
    tasync_coroutine_t *scope_waiter = spawn([&](tasync_coroutine_t *) { await_scope(s); });
    tasync_yield(rt, nullptr);

    auto info = [](tasync_coroutine_t *co) {
        tasync_wait_info_t i{};
        i.size = sizeof(i);
        EXPECT_EQ(tasync_coroutine_wait_info(co, &i), 0);
        return i;
    };
    auto describe = [](tasync_coroutine_t *co) {
        char buf[256];
        tasync_coroutine_describe_wait(co, buf, sizeof(buf));
        return std::string(buf);
    };
    EXPECT_EQ(info(sleeper).kind, static_cast<uint32_t>(TASYNC_WAIT_DELAY));
    EXPECT_EQ(describe(sleeper).rfind("delay, ", 0), 0u) << describe(sleeper);
    EXPECT_EQ(info(reader).kind, static_cast<uint32_t>(TASYNC_WAIT_FD));
    EXPECT_EQ(info(reader).fd, fds[0]);
    EXPECT_EQ(describe(reader), "fd " + std::to_string(fds[0]) + " readable");
    EXPECT_EQ(info(awaiter).kind, static_cast<uint32_t>(TASYNC_WAIT_AWAIT));
    EXPECT_EQ(info(awaiter).target, tasync_coroutine_awaitable(sleeper));
    EXPECT_EQ(describe(awaiter), "awaiting coroutine " + std::to_string(tasync_coroutine_id(sleeper)));
    EXPECT_EQ(info(scope_waiter).kind, static_cast<uint32_t>(TASYNC_WAIT_SCOPE));
    EXPECT_EQ(info(scope_waiter).scope, s.get());
    EXPECT_EQ(info(tasync_coroutine_current(rt)).kind, static_cast<uint32_t>(TASYNC_WAIT_NONE));

    // Locations: spawn ones come from the host at spawn time; suspend ones
    // at each suspension.
    tasync_location_t sl = tasync_coroutine_spawn_location(reader);
    EXPECT_STREQ(sl.file, "test.php");
    EXPECT_GT(tasync_coroutine_suspend_location(reader).line, sl.line);

    // Every unfinished coroutine, the main one first.
    tasync_coroutine_t *all[16];
    size_t n = tasync_runtime_coroutines(rt, all, 16);
    EXPECT_EQ(n, 6u);
    EXPECT_TRUE(flags(all[0]) & TASYNC_CO_MAIN);
    for (size_t i = 2; i < n && i < 16; ++i) EXPECT_LT(tasync_coroutine_id(all[i - 1]), tasync_coroutine_id(all[i]));

    // The tree dump shows scopes and what each coroutine waits for.
    std::string dump(tasync_runtime_dump(rt, nullptr, 0), '\0');
    tasync_runtime_dump(rt, dump.data(), dump.size() + 1);
    EXPECT_NE(dump.find("global scope: 4 active, 0 zombie"), std::string::npos) << dump;
    EXPECT_NE(dump.find("  coroutine 0 (main): running"), std::string::npos) << dump;
    EXPECT_NE(dump.find("scope " + std::to_string(tasync_scope_id(s)) + " created at test.php:"), std::string::npos)
        << dump;
    EXPECT_NE(dump.find("awaiting coroutine " + std::to_string(tasync_coroutine_id(sleeper))), std::string::npos);

    tasync_runtime_shutdown(rt, nullptr);
    EXPECT_EQ(run(), 0);
    close(fds[0]);
    close(fds[1]);
    for (auto *c : {sleeper, reader, awaiter, scope_waiter}) tasync_coroutine_release(c);
}

// --------------------------------------------------------------------- C14

// Seed 001, "Deadlocks": two coroutines awaiting each other.
TEST_F(Coroutine, C14_DeadlockIsReportedCancelledAndFatal) {
    tasync_coroutine_t *c1 = nullptr;
    tasync_coroutine_t *c2 = nullptr;
    std::vector<int> codes;
    c1 = spawn([&](tasync_coroutine_t *) {
        tasync_yield(rt, nullptr);
        codes.push_back(tasync_await(rt, tasync_coroutine_awaitable(c2), nullptr, nullptr, nullptr));
    });
    c2 = spawn([&](tasync_coroutine_t *) {
        tasync_yield(rt, nullptr);
        codes.push_back(tasync_await(rt, tasync_coroutine_awaitable(c1), nullptr, nullptr, nullptr));
    });
    EXPECT_EQ(run(), TASYNC_EDEADLOCK);
    ASSERT_GE(host.warnings.size(), 4u);
    EXPECT_EQ(host.warnings[0], "Deadlock detected: no active coroutines, 2 coroutines in waiting");
    EXPECT_EQ(host.warnings[1].rfind("Coroutine 1 spawned at test.php:", 0), 0u) << host.warnings[1];
    EXPECT_NE(host.warnings[1].find("is suspended at test.php:"), std::string::npos);
    EXPECT_NE(host.warnings[1].find("awaiting coroutine 2"), std::string::npos) << host.warnings[1];
    EXPECT_NE(host.warnings[3].find("Coroutines and scopes at the deadlock:\nglobal scope: 2 active"),
              std::string::npos)
        << host.warnings[3];
    EXPECT_EQ(codes, (std::vector<int>{-ECANCELED, -ECANCELED})) << "graceful shutdown cancelled both";
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_DEADLOCK);
    EXPECT_EQ(message_of(e), "Deadlock detected: no active coroutines, 2 coroutines in waiting");
    release_error(e);
    tasync_coroutine_release(c1);
    tasync_coroutine_release(c2);
}

TEST_F(Coroutine, C14_AMainCoroutineWaitingForeverIsPartOfTheDeadlock) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        void *v = nullptr, *e = nullptr;
        tasync_suspend(rt, &v, &e);  // nobody will resume it
        release_error(e);
    });
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), -ECANCELED);
    release_error(e);
    EXPECT_TRUE(warned("The main coroutine is suspended at test.php:"));
    EXPECT_EQ(run(), 0) << "the deadlock belonged to the earlier wait";
    e = tasync_runtime_take_error(rt);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_DEADLOCK);
    release_error(e);
    tasync_coroutine_release(co);
}

// --------------------------------------------------------------------- C15

TEST_F(Coroutine, C15_GracefulShutdownCancelsEveryCoroutineAndAllowsNewOnes) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) { say(delay(60000) == -ECANCELED ? "global cancelled" : "?"); });
    go([&](tasync_coroutine_t *) { say(delay(60000) == -ECANCELED ? "scope cancelled" : "?"); }, s);
    ScopeRef z(scope());
    go([&](tasync_coroutine_t *) { say(delay(60000) == -ECANCELED ? "zombie cancelled" : "?"); }, z);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(z, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    Error *why = cancellation("shutting down");
    EXPECT_EQ(tasync_runtime_shutdown(rt, why), 0);
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_GRACEFUL);
    host.release(why);
    go([&](tasync_coroutine_t *) { say("spawned during shutdown"); });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"global cancelled", "scope cancelled", "zombie cancelled",
                                             "spawned during shutdown"}));
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "a requested shutdown is not an error";
}

TEST_F(Coroutine, C15_ASecondUnhandledErrorForcesThroughProtect) {
    go([&](tasync_coroutine_t *) {
        tasync_protect_begin(rt);
        int rc = delay(60000);  // protected: only the second phase ends it
        void *e = nullptr;
        tasync_protect_end(rt, &e);
        release_error(e);
        say(rc == -ECANCELED ? "forced" : "?");
    });
    // Errors of coroutines of the global scope reach it at once.
    go([&](tasync_coroutine_t *self) {
        delay(1);
        fail(self, "first");
    });
    go([&](tasync_coroutine_t *self) {
        tasync_protect_begin(rt);
        delay(5);  // held through the first phase
        tasync_protect_end(rt, nullptr);
        fail(self, "second");
    });
    EXPECT_EQ(run(), TASYNC_EFAILED);
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_FORCED);
    EXPECT_EQ(out, (std::vector<std::string>{"forced"}));
    EXPECT_TRUE(warned("Another unhandled error during shutdown: Error(4): second"));
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(message_of(e), "first");
    release_error(e);
}

// --------------------------------------------------------------------- C17

TEST_F(Coroutine, C17_ACompletedCoroutineKeepsItsOutcome) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        Value *v = host.value(7);
        tasync_coroutine_set_result(self, v);
        host.release(v);
    });
    EXPECT_EQ(run(), 0);
    void *v = nullptr, *e = nullptr;
    EXPECT_EQ(tasync_coroutine_outcome(co, &v, &e), 0);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(static_cast<Value *>(v)->v, 7);
    EXPECT_EQ(host.live_values, 1) << "held by the coroutine until it is released";
    tasync_coroutine_release(co);
    EXPECT_EQ(host.live_values, 0);
}

// --------------------------------------------------------------------- C18

TEST_F(Coroutine, C18_IoSuspendsOnlyTheWaitingCoroutine) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    go([&](tasync_coroutine_t *) {
        unsigned rev = 0;
        EXPECT_EQ(tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, &rev, nullptr), 0);
        char c = 0;
        EXPECT_EQ(read(fds[0], &c, 1), 1);
        say(std::string("reader got ") + c);
    });
    go([&](tasync_coroutine_t *) {
        say("others run meanwhile");
        delay(2);
        EXPECT_EQ(write(fds[1], "x", 1), 1);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"others run meanwhile", "reader got x"}));
    tasync_fd_forget(rt, fds[0]);
    close(fds[0]);
    close(fds[1]);
}

// --------------------------------------------------------------------- C19

TEST_F(Coroutine, C19_TheRuntimeRunsAgainAfterTheEnd) {
    go([&](tasync_coroutine_t *) { say("first run"); });
    EXPECT_EQ(run(), 0);
    // What a shutdown function does: spawn and await after the end.
    go([&](tasync_coroutine_t *) {
        delay(1);
        say("second run");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"first run", "second run"}));
}

// --------------------------------------------------------------------- C20

TEST_F(Coroutine, C20_ProtectHoldsCancellationBackAndDeliversItAtTheEnd) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        ASSERT_EQ(tasync_protect_begin(rt), 0);
        EXPECT_EQ(delay(10), 0) << "not interrupted";
        say("critical data written");
        void *e = nullptr;
        EXPECT_EQ(tasync_protect_end(rt, &e), -ECANCELED);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
        release_error(e);
        say("cancellation delivered after protect");
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"critical data written", "cancellation delivered after protect"}));
    EXPECT_TRUE(flags(co) & TASYNC_CO_CANCELLED);
    tasync_coroutine_release(co);
}

TEST_F(Coroutine, C20_NestedSectionsDeliverAtTheOutermostEnd) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        tasync_protect_begin(rt);
        tasync_protect_begin(rt);
        tasync_coroutine_cancel(self, nullptr);
        EXPECT_EQ(tasync_protect_end(rt, nullptr), 0);
        EXPECT_EQ(delay(1), 0) << "still protected";
        EXPECT_EQ(tasync_protect_end(rt, nullptr), -ECANCELED);
        EXPECT_EQ(tasync_protect_end(rt, nullptr), TASYNC_EBAD_STATE);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_protect_begin(nullptr), 0) << "the main coroutine may protect too";
    EXPECT_EQ(tasync_protect_end(rt, nullptr), 0);
    tasync_coroutine_release(co);
}

TEST_F(Coroutine, C20_DisposeWhileCoroutinesAreInsideProtect) {
    ScopeRef s(scope());
    for (int i = 0; i < 3; ++i) {
        go([&, i](tasync_coroutine_t *) {
            tasync_protect_begin(rt);
            delay(5 + static_cast<uint64_t>(i));
            say("section " + std::to_string(i) + " done");
            int rc = tasync_protect_end(rt, nullptr);
            say(rc == -ECANCELED ? "then cancelled" : "?");
        }, s);
    }
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(s, TASYNC_DISPOSE_CANCEL, 0, nullptr);
    EXPECT_EQ(warnings_with("is cancelled by the Scope disposed at"), 3u);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"section 0 done", "then cancelled", "section 1 done", "then cancelled",
                                             "section 2 done", "then cancelled"}));
}

// --------------------------------------------------------------------- C21

TEST_F(Coroutine, C21_DelayIsCancellableAndTimeoutIsAnAwaitable) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { say(delay(60000) == -ECANCELED ? "cancelled" : "?"); });
    // Read before the timeout is armed: its deadline counts from the clock
    // read when it is created, so a later start reads up to that gap short.
    uint64_t start = tasync_runtime_now(rt);
    tasync_awaitable_t *t = timeout_ms(5);
    EXPECT_EQ(tasync_await(rt, t, nullptr, nullptr, nullptr), 0);
    EXPECT_GE(tasync_runtime_now(rt) - start, 5 * kMs);
    tasync_awaitable_release(t);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"cancelled"}));
    tasync_coroutine_release(co);
}

// C12: a host that checks recursion depth needs the coroutine's stack.
TEST_F(Coroutine, C12_StackBoundsContainTheCoroutinesFrames) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        char here = 0;
        void *low = nullptr, *high = nullptr;
        ASSERT_EQ(tasync_coroutine_stack_bounds(self, &low, &high), 0);
        EXPECT_LT(static_cast<void *>(&here), high);
        EXPECT_GT(static_cast<void *>(&here), low);
        EXPECT_GE(static_cast<char *>(high) - static_cast<char *>(low), 16 * 1024);
    });
    EXPECT_EQ(tasync_coroutine_stack_bounds(co, nullptr, nullptr), TASYNC_EBAD_STATE) << "not started";
    EXPECT_EQ(tasync_coroutine_stack_bounds(tasync_coroutine_current(rt), nullptr, nullptr), TASYNC_EBAD_STATE);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
}

// C18: a host that maps a cancelled I/O wait to an ordinary failure keeps
// the cancellation for the coroutine's next suspension point.
TEST_F(Coroutine, C18_ACancelledIoWaitCanLeaveTheCancellationPending) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        void *e = nullptr;
        int rc = tasync_await_fd(rt, fds[0], TASYNC_IO_READABLE, nullptr, nullptr, &e);
        release_error(e);
        EXPECT_EQ(rc, -ECANCELED);
        say("read failed");  // what fread() reports
        EXPECT_EQ(tasync_coroutine_repend_cancellation(self), 0);
        EXPECT_EQ(delay(60000), -ECANCELED) << "delivered at the next suspension";
        say("then cancelled");
    });
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"read failed", "then cancelled"}));
    EXPECT_EQ(tasync_coroutine_repend_cancellation(tasync_coroutine_current(rt)), TASYNC_EBAD_STATE);
    tasync_fd_forget(rt, fds[0]);
    close(fds[0]);
    close(fds[1]);
    tasync_coroutine_release(co);
}

// C10: a cancellation requested while the coroutine runs is pending; its
// next suspension point throws it at once.
TEST_F(Coroutine, C10_APendingCancellationInterruptsTheNextSuspension) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        tasync_coroutine_cancel(self, nullptr);
        say("still running");
        uint64_t start = tasync_runtime_now(rt);
        EXPECT_EQ(delay(60000), -ECANCELED);
        EXPECT_LT(tasync_runtime_now(rt) - start, 1000 * kMs);
        say("cancelled at the delay");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"still running", "cancelled at the delay"}));
    EXPECT_TRUE(flags(co) & TASYNC_CO_CANCELLED);
    tasync_coroutine_release(co);
}

// --------------------------------------------------- C2: high priority

TEST_F(Coroutine, C2_AHighPriorityCoroutineRunsAheadOfTheQueueWhenQueuedAndWhenWoken) {
    auto named = [&](const std::string &name) {
        return spawn([&, name](tasync_coroutine_t *) {
            say(name);
            tasync_yield(rt, nullptr);
            say(name + " again");
        });
    };
    tasync_coroutine_t *a = named("a");
    tasync_coroutine_t *b = named("b");
    tasync_coroutine_t *hi = named("hi");
    EXPECT_EQ(tasync_coroutine_set_high_priority(hi, 1), 0);
    EXPECT_TRUE(flags(hi) & TASYNC_CO_HIGH_PRIORITY);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(out, (std::vector<std::string>{"hi", "a", "b"})) << "moved to the front once queued";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"hi", "a", "b", "hi again", "a again", "b again"}))
        << "a yield still goes to the back";
    out.clear();

    // Woken together with others: first. The gate leaves the waiters time
    // to start waiting even in a slow build (ASan).
    tasync_awaitable_t *gate = timeout_ms(100);
    std::vector<tasync_coroutine_t *> waiters;
    for (const char *name : {"w1", "w2", "w3"}) {
        waiters.push_back(spawn([&, name](tasync_coroutine_t *) {
            tasync_await(rt, gate, nullptr, nullptr, nullptr);
            say(name);
        }));
    }
    tasync_yield(rt, nullptr);
    EXPECT_EQ(tasync_coroutine_set_high_priority(waiters[2], 1), 0) << "set while it waits";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"w3", "w1", "w2"}));
    EXPECT_EQ(tasync_coroutine_set_high_priority(nullptr, 1), -EINVAL);
    tasync_awaitable_release(gate);
    for (auto *c : waiters) tasync_coroutine_release(c);
    for (auto *c : {a, b, hi}) tasync_coroutine_release(c);
}

// ------------------------------------------- C21: cancelling a timeout

TEST_F(Coroutine, C21_ACancelledTimeoutNeverFires) {
    // Bounds wide enough for a loaded machine: the deadline is cancelled
    // long before it is due, and the work outlives the time it was due at.
    tasync_awaitable_t *deadline = timeout_ms(200);
    tasync_coroutine_t *work = spawn([&](tasync_coroutine_t *self) {
        delay(1);
        EXPECT_EQ(tasync_timeout_cancel(deadline, nullptr), 0);
        delay(300);
        Value *v = host.value(7);
        tasync_coroutine_set_result(self, v);
        host.release(v);
    });
    void *v = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(work), deadline, &v, nullptr), 0)
        << "the wait that used it as its cancellation went on";
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(static_cast<Value *>(v)->v, 7);
    release_value(v);
    EXPECT_TRUE(tasync_awaitable_is_completed(deadline));
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, deadline, nullptr, nullptr, &e), TASYNC_EFAILED) << "its awaiters get the cancellation";
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
    release_error(e);
    tasync_coroutine_t *quick = spawn([](tasync_coroutine_t *) {});
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(quick), deadline, nullptr, nullptr), 0)
        << "a cancelled timeout is no cancellation at all";
    EXPECT_EQ(tasync_timeout_cancel(deadline, nullptr), 0) << "again: nothing";
    tasync_awaitable_t *fired = timeout_ms(1);
    EXPECT_EQ(tasync_await(rt, fired, nullptr, nullptr, nullptr), 0);
    Error *late = cancellation("too late");
    EXPECT_EQ(tasync_timeout_cancel(fired, late), 0);
    EXPECT_EQ(tasync_await(rt, fired, nullptr, nullptr, nullptr), 0) << "fired: cancelling changes nothing";
    host.release(late);
    EXPECT_EQ(tasync_timeout_cancel(tasync_coroutine_awaitable(quick), nullptr), -EINVAL);
    EXPECT_EQ(run(), 0);
    tasync_awaitable_release(deadline);
    tasync_awaitable_release(fired);
    tasync_coroutine_release(work);
    tasync_coroutine_release(quick);
}
