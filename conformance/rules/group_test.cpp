// Rule G1: task groups.
#include <algorithm>

#include "rules.hpp"

using namespace tasync_rules;

class Group : public Rules {
protected:
    // all() builds "key=value" strings in spawn order into `built`, and
    // completes with a Value holding how many there were.
    std::vector<std::string> built;

    tasync_group_t *group(uint32_t concurrency = 0) {
        tasync_group_options_t o{};
        o.size = sizeof(o);
        o.concurrency = concurrency;
        o.data = this;
        o.build_results = [](void *d, tasync_group_t *g) -> void * {
            auto *self = static_cast<Group *>(d);
            self->built.clear();
            for (size_t i = 0; i < tasync_group_count(g); ++i) {
                tasync_group_entry_t e{};
                e.size = sizeof(e);
                tasync_group_entry(g, i, 0, &e);
                std::string k = e.key.is_string ? std::string(e.key.str, e.key.len) : std::to_string(e.key.num);
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

TEST_F(Group, G1_ReleasingTheGroupStartsHeldTasks) {
    tasync_group_t *g = group(1);
    tasync_coroutine_release(task(g, nullptr, 1, 1));
    tasync_coroutine_t *held = task(g, nullptr, 2, 1);
    tasync_group_release(g);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(flags(held) & TASYNC_CO_STARTED) << "nothing is dropped silently";
    tasync_coroutine_release(held);
}
