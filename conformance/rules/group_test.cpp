// Rule G1: task groups.
#include <algorithm>

#include "rules.hpp"

using namespace tasync_rules;

class Group : public Rules {
protected:
    // all() builds "key=value" strings in spawn order into `built`, and
    // completes with a Value holding how many there were.
    std::vector<std::string> built;

    tasync_group_t *group(uint32_t concurrency = 0, uint32_t queue_limit = 0, tasync_scope_t *parent = nullptr) {
        tasync_group_options_t o{};
        o.size = sizeof(o);
        o.concurrency = concurrency;
        o.queue_limit = queue_limit;
        o.parent = parent;
        o.data = this;
        o.build_results = [](void *d, tasync_group_t *g) -> void * {
            auto *self = static_cast<Group *>(d);
            self->built.clear();
            for (size_t i = 0; i < tasync_group_count(g); ++i) {
                tasync_group_entry_t e{};
                e.size = sizeof(e);
                tasync_group_entry(g, i, 0, &e);
                std::string k = e.key.is_string ? std::string(e.key.str, e.key.len) : std::to_string(e.key.num);
                if (e.error != nullptr) continue;  // all() ignoring errors
                long v = e.value != nullptr ? static_cast<Value *>(e.value)->v : -1;
                self->built.push_back(k + "=" + std::to_string(v));
            }
            return self->host.value(static_cast<long>(self->built.size()));
        };
        tasync_group_t *g = nullptr;
        void *e = nullptr;
        EXPECT_EQ(tasync_group_create(rt, &o, &g, &e), 0);
        release_error(e);
        return g;
    }

    // Spawns a task returning value after ms (or failing with msg).
    tasync_coroutine_t *task(tasync_group_t *g, const char *key, long value, uint64_t ms, const char *msg = nullptr,
                             int expect = 0) {
        tasync_group_key_t k{};
        if (key != nullptr) {
            k.is_string = 1;
            k.str = key;
            k.len = std::char_traits<char>::length(key);
        }
        tasync_spawn_options_t o = callback([this, value, ms, msg](tasync_coroutine_t *self) {
            ++running;
            max_running = std::max(max_running, running);
            if (ms > 0) delay(ms);
            --running;
            if (msg != nullptr) {
                fail(self, msg);
                return;
            }
            Value *v = host.value(value);
            tasync_coroutine_set_result(self, v);
            host.release(v);
        });
        tasync_coroutine_t *co = nullptr;
        void *e = nullptr;
        int rc = tasync_group_spawn(g, key != nullptr ? &k : nullptr, &o, &co, &e);
        EXPECT_EQ(rc, expect) << message_of(e);
        if (rc != 0) {
            last_error = message_of(e);
            o.arg_release(o.arg);
        }
        release_error(e);
        return co;
    }

    // Awaits aw; returns the Value's number or -1000 on error (message in
    // last_error).
    long await_value(tasync_awaitable_t *aw) {
        void *v = nullptr, *e = nullptr;
        int rc = tasync_await(rt, aw, nullptr, &v, &e);
        long r = rc == 0 ? (v != nullptr ? static_cast<Value *>(v)->v : 0) : -1000;
        if (rc != 0) last_error = message_of(e);
        release_value(v);
        release_error(e);
        return r;
    }

    int running = 0;
    int max_running = 0;
    std::string last_error;
};

TEST_F(Group, G1_AllCollectsEveryResultByKey) {
    tasync_group_t *g = group();
    tasync_coroutine_release(task(g, nullptr, 10, 3));
    tasync_coroutine_release(task(g, "user", 20, 1));
    tasync_coroutine_release(task(g, nullptr, 30, 2));
    tasync_awaitable_t *all = nullptr;
    ASSERT_EQ(tasync_group_all(g, &all), 0);
    EXPECT_EQ(await_value(all), 3);
    EXPECT_EQ(built, (std::vector<std::string>{"0=10", "user=20", "1=30"})) << "spawn order, auto keys count up";
    tasync_awaitable_release(all);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
}

TEST_F(Group, G1_AllOfAnEmptyGroupCompletesAtOnce) {
    tasync_group_t *g = group();
    tasync_awaitable_t *all = nullptr;
    ASSERT_EQ(tasync_group_all(g, &all), 0);
    EXPECT_TRUE(tasync_awaitable_is_completed(all));
    EXPECT_EQ(await_value(all), 0);
    tasync_awaitable_release(all);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
}

TEST_F(Group, G1_AllFailsWithTheFirstErrorOnceEveryTaskEnded) {
    tasync_group_t *g = group();
    tasync_coroutine_t *slow = task(g, nullptr, 1, 20);
    tasync_coroutine_release(task(g, nullptr, 0, 2, "fail1"));
    tasync_coroutine_release(task(g, nullptr, 0, 5, "fail2"));
    tasync_awaitable_t *all = nullptr;
    tasync_group_all(g, &all);
    EXPECT_EQ(await_value(all), -1000);
    EXPECT_EQ(last_error, "fail1");
    EXPECT_TRUE(flags(slow) & TASYNC_CO_COMPLETED) << "all() returns only when no task is left running";
    tasync_awaitable_release(all);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "task errors are results: they never reach a scope";
    tasync_coroutine_release(slow);
    tasync_group_release(g);
}

TEST_F(Group, G1_RaceTakesTheFirstOutcome) {
    tasync_group_t *g = group();
    tasync_awaitable_t *race = nullptr;
    tasync_group_race(g, &race);
    EXPECT_FALSE(tasync_awaitable_is_completed(race)) << "waits for a first task";
    tasync_coroutine_release(task(g, nullptr, 1, 10));
    tasync_coroutine_release(task(g, nullptr, 2, 2));
    EXPECT_EQ(await_value(race), 2);
    tasync_awaitable_release(race);
    tasync_coroutine_release(task(g, nullptr, 0, 1, "fast failure"));
    tasync_group_race(g, &race);
    EXPECT_EQ(await_value(race), 2) << "the first task to complete, ever";
    tasync_awaitable_release(race);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
}

TEST_F(Group, G1_AnySkipsErrorsAndFailsOnlyWhenAllFailed) {
    tasync_group_t *g = group();
    tasync_coroutine_release(task(g, nullptr, 0, 1, "first failure"));
    tasync_coroutine_release(task(g, nullptr, 7, 5));
    tasync_awaitable_t *any = nullptr;
    tasync_group_any(g, &any);
    EXPECT_EQ(await_value(any), 7);
    tasync_awaitable_release(any);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);

    g = group();
    tasync_coroutine_release(task(g, nullptr, 0, 3, "a"));
    tasync_coroutine_release(task(g, nullptr, 0, 1, "b"));
    tasync_group_any(g, &any);
    EXPECT_EQ(await_value(any), -1000);
    EXPECT_EQ(last_error, "b") << "the first error in completion order";
    tasync_awaitable_release(any);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
}

TEST_F(Group, G1_ConcurrencyLimitHoldsTasksBackUntilASlotFrees) {
    tasync_group_t *g = group(2);
    std::vector<tasync_coroutine_t *> cos;
    for (long i = 0; i < 6; ++i) cos.push_back(task(g, nullptr, i, static_cast<uint64_t>(2 + i % 3)));
    tasync_group_entry_t e{};
    e.size = sizeof(e);
    tasync_group_entry(g, 0, 0, &e);
    EXPECT_EQ(e.state, static_cast<uint32_t>(TASYNC_GROUP_TASK_RUNNING));
    tasync_group_entry(g, 2, 0, &e);
    EXPECT_EQ(e.state, static_cast<uint32_t>(TASYNC_GROUP_TASK_HELD));
    EXPECT_FALSE(flags(cos[2]) & TASYNC_CO_QUEUED) << "created, not queued";
    tasync_awaitable_t *all = nullptr;
    tasync_group_all(g, &all);
    EXPECT_EQ(await_value(all), 6);
    EXPECT_EQ(max_running, 2);
    EXPECT_EQ(built, (std::vector<std::string>{"0=0", "1=1", "2=2", "3=3", "4=4", "5=5"}));
    tasync_awaitable_release(all);
    EXPECT_EQ(run(), 0);
    for (auto *c : cos) tasync_coroutine_release(c);
    tasync_group_release(g);
}

// A held task cancelled before it starts takes no slot, even while its
// finally handlers (C11) still run: the next held task starts when the
// running one ends.
TEST_F(Group, G1_AHeldTaskCancelledWhileItsFinallyHandlerRunsTakesNoSlot) {
    tasync_group_t *g = group(1);
    tasync_coroutine_t *a = task(g, nullptr, 1, 2);
    tasync_coroutine_t *b = task(g, nullptr, 2, 0);
    tasync_coroutine_t *c = task(g, nullptr, 3, 0);
    tasync_spawn_options_t fin = callback([this](tasync_coroutine_t *) {
        say("finally of b starts");
        delay(30);
        say("finally of b ends");
    });
    ASSERT_EQ(tasync_coroutine_on_finally(b, &fin), 0);
    EXPECT_EQ(tasync_coroutine_cancel(b, nullptr), 0);
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(c), nullptr, nullptr, &e), 0);
    say("c done");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"finally of b starts", "c done", "finally of b ends"}))
        << "c started when a ended, while b's finally handler still ran";
    for (auto *co : {a, b, c}) tasync_coroutine_release(co);
    tasync_group_release(g);
}

TEST_F(Group, G1_IterationIsInCompletionOrder) {
    tasync_group_t *g = group();
    tasync_coroutine_release(task(g, "orders", 2, 6));
    tasync_coroutine_release(task(g, "user", 1, 2));
    tasync_coroutine_release(task(g, "fails", 0, 4, "Task failed"));
    for (size_t i = 0;; ++i) {
        int rc = tasync_group_wait_next(rt, g, i, nullptr, nullptr);
        ASSERT_GE(rc, 0);
        if (rc == 0) break;
        tasync_group_entry_t e{};
        e.size = sizeof(e);
        ASSERT_EQ(tasync_group_entry(g, i, 1, &e), 0);
        std::string k(e.key.str, e.key.len);
        if (e.error != nullptr) say("Task " + k + " failed: " + message_of(e.error));
        else say("Task " + k + ": " + std::to_string(static_cast<Value *>(e.value)->v));
    }
    EXPECT_EQ(out, (std::vector<std::string>{"Task user: 1", "Task fails failed: Task failed", "Task orders: 2"}));
    EXPECT_EQ(tasync_group_completed_count(g), 3u);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
}

TEST_F(Group, G1_KeysAreUnique) {
    tasync_group_t *g = group();
    tasync_coroutine_release(task(g, "a", 1, 0));
    EXPECT_EQ(task(g, "a", 2, 0, nullptr, -EEXIST), nullptr);
    EXPECT_EQ(last_error, "A task with the key \"a\" already exists");
    tasync_group_key_t k{};
    k.num = 5;
    tasync_spawn_options_t o = callback([](tasync_coroutine_t *) {});
    EXPECT_EQ(tasync_group_spawn(g, &k, &o, nullptr, nullptr), 0);
    tasync_coroutine_release(task(g, nullptr, 3, 0));  // auto key: 6
    tasync_group_entry_t e{};
    e.size = sizeof(e);
    tasync_group_entry(g, 2, 0, &e);
    EXPECT_FALSE(e.key.is_string);
    EXPECT_EQ(e.key.num, 6);
    EXPECT_EQ(tasync_group_entry(g, 3, 0, &e), -ERANGE);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
}

TEST_F(Group, G1_TheGroupIsAScope) {
    tasync_group_t *g = group(1);
    tasync_scope_t *s = tasync_group_scope(g);
    EXPECT_EQ(tasync_scope_parent(s), tasync_scope_global(rt)) << "a child of the current scope";
    tasync_coroutine_t *first = task(g, nullptr, 1, 60000);
    tasync_coroutine_t *held = task(g, nullptr, 2, 0);
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(s, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(flags(first) & TASYNC_CO_CANCELLED);
    EXPECT_TRUE(flags(held) & TASYNC_CO_CANCELLED);
    EXPECT_FALSE(flags(held) & TASYNC_CO_STARTED) << "a held task cancelled never starts";
    tasync_awaitable_t *all = nullptr;
    tasync_group_all(g, &all);
    EXPECT_EQ(await_value(all), -1000);
    tasync_awaitable_release(all);
    EXPECT_EQ(running, 0);
    tasync_coroutine_release(first);
    tasync_coroutine_release(held);
    tasync_group_release(g);
}

TEST_F(Group, G1_ReleasingTheGroupIsSilent) {
    // The race() pattern: the winner is taken, the group is dropped while
    // the loser still runs and a third task waits for a slot.
    tasync_group_t *g = group(2);
    tasync_coroutine_release(task(g, nullptr, 1, 1));
    tasync_coroutine_t *loser = task(g, nullptr, 2, 20);
    tasync_coroutine_t *started = task(g, nullptr, 3, 20);  // gets the winner's slot
    tasync_coroutine_t *held = task(g, nullptr, 4, 1);
    tasync_awaitable_t *race = nullptr;
    tasync_group_race(g, &race);
    EXPECT_EQ(await_value(race), 1);
    tasync_awaitable_release(race);
    tasync_group_let_go(g);
    EXPECT_TRUE(tasync_group_flags(g) & TASYNC_GROUP_CLOSED);
    EXPECT_TRUE(flags(loser) & TASYNC_CO_ZOMBIE) << "the losers go on as zombies (S9)";
    EXPECT_TRUE(flags(started) & TASYNC_CO_ZOMBIE);
    EXPECT_TRUE(flags(held) & TASYNC_CO_CANCELLED) << "a task not started yet never starts (C7)";
    tasync_group_release(g);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(flags(loser) & TASYNC_CO_COMPLETED);
    EXPECT_FALSE(flags(loser) & TASYNC_CO_CANCELLED);
    EXPECT_FALSE(flags(held) & TASYNC_CO_STARTED);
    EXPECT_EQ(host.warnings, std::vector<std::string>{}) << "no warning of any kind";
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    tasync_coroutine_release(loser);
    tasync_coroutine_release(started);
    tasync_coroutine_release(held);

    // Dropping the last reference without letting go does the same.
    g = group(1);
    tasync_coroutine_release(task(g, nullptr, 1, 1));
    held = task(g, nullptr, 2, 1);
    tasync_group_release(g);
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(flags(held) & TASYNC_CO_STARTED);
    EXPECT_EQ(host.warnings, std::vector<std::string>{});
    tasync_coroutine_release(held);
}

// The last reference to a group can be an awaitable of its (race() not
// awaited): releasing that awaitable lets the group go, which cancels the
// held tasks; their completions no longer reach the awaitable that is
// going, and nothing is freed twice.
TEST_F(Group, G1_TheGroupsLastReferenceHeldByItsRaceLetsGoWhenTheRaceIsReleased) {
    tasync_group_t *g = group(1);
    tasync_coroutine_t *running = task(g, nullptr, 1, 5);
    tasync_coroutine_t *held = task(g, nullptr, 2, 1);
    tasync_awaitable_t *race = nullptr;
    ASSERT_EQ(tasync_group_race(g, &race), 0);
    tasync_group_release(g);  // the race keeps it
    EXPECT_FALSE(flags(held) & TASYNC_CO_COMPLETED);
    tasync_awaitable_release(race);  // the last reference: the group lets go
    EXPECT_TRUE(flags(held) & TASYNC_CO_CANCELLED) << "a task not started yet never starts (C7)";
    EXPECT_TRUE(flags(running) & TASYNC_CO_ZOMBIE) << "the running task goes on as a zombie (S9)";
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(flags(running) & TASYNC_CO_COMPLETED);
    EXPECT_FALSE(flags(held) & TASYNC_CO_STARTED);
    EXPECT_EQ(host.warnings, std::vector<std::string>{});
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    tasync_coroutine_release(running);
    tasync_coroutine_release(held);
}

TEST_F(Group, G1_CloseSealsTheGroupAndAwaitCompletionWaitsForItsFinallyHandlers) {
    tasync_group_t *g = group();
    tasync_coroutine_release(task(g, nullptr, 1, 4));
    tasync_coroutine_release(task(g, nullptr, 0, 2, "a failure awaitCompletion does not throw"));
    tasync_spawn_options_t fin = callback([&](tasync_coroutine_t *) {
        delay(2);  // a handler that suspends still runs to its end first
        say("finally handler");
    });
    EXPECT_EQ(tasync_group_on_finally(g, &fin), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_group_await_completion(rt, g, nullptr, &e), TASYNC_EBAD_STATE) << "an open group may grow";
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
    release_error(e);
    EXPECT_EQ(tasync_group_flags(g), 0u);
    EXPECT_EQ(tasync_group_close(g), 0);
    EXPECT_EQ(tasync_group_flags(g), static_cast<uint32_t>(TASYNC_GROUP_CLOSED));
    EXPECT_EQ(task(g, nullptr, 2, 0, nullptr, TASYNC_ESCOPE_CLOSED), nullptr);
    EXPECT_EQ(last_error, "Cannot spawn tasks on a closed TaskGroup");
    EXPECT_FALSE(sflags(tasync_group_scope(g)) & TASYNC_SCOPE_CLOSED) << "running tasks may still spawn into it";
    go([&](tasync_coroutine_t *) {
        void *err = nullptr;
        EXPECT_EQ(tasync_group_await_completion(rt, g, nullptr, &err), TASYNC_ESCOPE_DEADLOCK);
        release_error(err);
    }, tasync_group_scope(g));
    EXPECT_EQ(tasync_group_await_completion(rt, g, nullptr, &e), 0) << message_of(e);
    say("awaitCompletion returned");
    EXPECT_EQ(out, (std::vector<std::string>{"finally handler", "awaitCompletion returned"}))
        << "C11: the handlers ran before the awaiter resumed";
    EXPECT_EQ(tasync_group_flags(g), static_cast<uint32_t>(TASYNC_GROUP_CLOSED | TASYNC_GROUP_FINISHED |
                                                           TASYNC_GROUP_COMPLETED));
    EXPECT_TRUE(sflags(tasync_group_scope(g)) & TASYNC_SCOPE_COMPLETED);
    EXPECT_EQ(tasync_group_await_completion(rt, g, nullptr, nullptr), 0) << "at once, again";
    tasync_group_suppress_errors(g);
    EXPECT_EQ(run(), 0);
    tasync_group_release(g);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
}

TEST_F(Group, G1_AQueueLimitSuspendsTheProducerUntilAHeldTaskStarts) {
    tasync_group_t *g = group(1, 2);
    size_t most_held = 0;
    tasync_coroutine_t *producer = spawn([&](tasync_coroutine_t *) {
        for (long i = 0; i < 6; ++i) {
            tasync_coroutine_release(task(g, nullptr, i, 2));
            size_t held = 0;
            for (size_t k = 0; k < tasync_group_count(g); ++k) {
                tasync_group_entry_t e{};
                e.size = sizeof(e);
                tasync_group_entry(g, k, 0, &e);
                held += e.state == TASYNC_GROUP_TASK_HELD;
            }
            most_held = std::max(most_held, held);
            say("spawned " + std::to_string(i) + " after " + std::to_string(tasync_group_completed_count(g)) +
                " completed");
        }
        tasync_group_close(g);
    });
    tasync_coroutine_t *waiting = spawn([&](tasync_coroutine_t *) {
        // Closing the group wakes a producer held by the limit with an error.
        delay(1);
        tasync_group_t *h = group(1, 1);
        tasync_coroutine_release(task(h, nullptr, 1, 50));
        tasync_coroutine_release(task(h, nullptr, 2, 0));
        go([&, h](tasync_coroutine_t *) {
            delay(2);
            tasync_group_close(h);
        });
        EXPECT_EQ(task(h, nullptr, 3, 0, nullptr, TASYNC_ESCOPE_CLOSED), nullptr);
        say("held producer: " + last_error);
        tasync_group_release(h);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(most_held, 2u);
    EXPECT_EQ(out, (std::vector<std::string>{"spawned 0 after 0 completed", "spawned 1 after 0 completed",
                                             "spawned 2 after 0 completed", "spawned 3 after 1 completed",
                                             "held producer: Cannot spawn tasks on a closed TaskGroup",
                                             "spawned 4 after 2 completed", "spawned 5 after 3 completed"}));
    tasync_coroutine_release(producer);
    tasync_coroutine_release(waiting);
    tasync_group_release(g);
}

TEST_F(Group, G1_ErrorsNoReaderHandledFlowWhenTheGroupIsLetGo) {
    ScopeRef s(scope());
    std::vector<std::string> reached;
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        reached.push_back(message_of(e));
        return 0;
    });
    auto failing_group = [&](const char *msg) {
        tasync_group_t *g = group(0, 0, s);
        tasync_coroutine_release(task(g, nullptr, 0, 0, msg));
        tasync_coroutine_release(task(g, nullptr, 1, 0));
        delay(1);
        return g;
    };
    tasync_group_t *g = failing_group("nobody read it");
    tasync_group_let_go(g);
    tasync_group_release(g);

    g = failing_group("suppressed");
    tasync_group_suppress_errors(g);
    tasync_group_let_go(g);
    tasync_group_release(g);

    g = failing_group("iterated");
    for (size_t i = 0; tasync_group_wait_next(rt, g, i, nullptr, nullptr) == 1; ++i) {
    }
    tasync_group_release(g);

    g = failing_group("reported by all()");
    tasync_awaitable_t *all = nullptr;
    tasync_group_all(g, &all);
    EXPECT_EQ(await_value(all), -1000);
    tasync_awaitable_release(all);
    tasync_group_release(g);

    g = failing_group("skipped by any()");
    tasync_group_any(g, &all);
    EXPECT_EQ(await_value(all), 1);
    tasync_awaitable_release(all);
    tasync_group_release(g);

    g = failing_group("ignored by all()");
    tasync_group_all_ignoring_errors(g, &all);
    EXPECT_EQ(await_value(all), 1) << "one result, the error left out";
    EXPECT_EQ(built, (std::vector<std::string>{"1=1"}));
    tasync_awaitable_release(all);
    tasync_group_release(g);

    EXPECT_EQ(reached, (std::vector<std::string>{"nobody read it"}));
    EXPECT_EQ(run(), 0);
}

TEST_F(Group, G1_C11_FinallyHandlersOfAGroupThatCompletedAtCloseRunBeforeAwaitCompletionReturns) {
    tasync_group_t *g = group();
    tasync_coroutine_release(task(g, nullptr, 1, 0));
    tasync_spawn_options_t fin = callback([&](tasync_coroutine_t *) {
        delay(1);
        say("handler registered before");
    });
    tasync_group_on_finally(g, &fin);
    delay(2);
    tasync_group_close(g);  // every task is done: the group and its scope complete now
    EXPECT_TRUE(sflags(tasync_group_scope(g)) & TASYNC_SCOPE_COMPLETED);
    EXPECT_EQ(tasync_group_await_completion(rt, g, nullptr, nullptr), 0);
    say("awaitCompletion returned");
    tasync_spawn_options_t late = callback([&](tasync_coroutine_t *) { say("handler registered after"); });
    tasync_group_on_finally(g, &late);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"handler registered before", "awaitCompletion returned",
                                             "handler registered after"}));
    tasync_group_release(g);
}
