// Scale and depth: the rules hold for large scopes and deep trees, and
// nothing is left behind.
#include "rules.hpp"

using namespace tasync_rules;

class Stress : public Rules {};

TEST_F(Stress, S6_CancellingAScopeOf100kSuspendedCoroutines) {
    ScopeRef s(scope());
    constexpr int kCount = 100000;
    int cancelled = 0;
    for (int i = 0; i < kCount; ++i) {
        go([&](tasync_coroutine_t *) {
            if (delay(60000) == -ECANCELED) ++cancelled;
        }, s);
    }
    tasync_yield(rt, nullptr);  // every one of them is now suspended
    EXPECT_EQ(tasync_scope_active_count(s), static_cast<size_t>(kCount));
    tasync_scope_cancel(s, nullptr);
    EXPECT_EQ(tasync_scope_await_after_cancellation(rt, s, nullptr, nullptr, nullptr, nullptr), 0);
    EXPECT_EQ(cancelled, kCount);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_COMPLETED);
    EXPECT_EQ(tasync_runtime_coroutines(rt, nullptr, 0), 1u) << "only the main coroutine is left";
    EXPECT_EQ(run(), 0);
}

TEST_F(Stress, S6_ATenLevelTreeIsCancelledDeepestFirst) {
    std::vector<tasync_scope_t *> levels;
    levels.push_back(scope());
    for (int i = 1; i < 10; ++i) levels.push_back(scope(levels.back()));
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j < 3; ++j) {
            go([&, i](tasync_coroutine_t *) {
                if (delay(60000) == -ECANCELED) say(std::to_string(i));
            }, levels[static_cast<size_t>(i)]);
        }
    }
    tasync_yield(rt, nullptr);
    EXPECT_EQ(tasync_scope_active_count(levels[0]), 30u);
    EXPECT_EQ(tasync_scope_active_count(levels[9]), 3u);
    tasync_scope_cancel(levels[0], nullptr);
    EXPECT_EQ(run(), 0);
    std::vector<std::string> expected;
    for (int i = 9; i >= 0; --i) {
        for (int j = 0; j < 3; ++j) expected.push_back(std::to_string(i));
    }
    EXPECT_EQ(out, expected);
    for (tasync_scope_t *s : levels) {
        EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_COMPLETED);
        tasync_scope_release(s);
    }
}

// The owners of levels 1-9 let go of their scopes (dispose on release);
// an error at the bottom then climbs every level to the root's waiter.
TEST_F(Stress, S10_AnErrorTenLevelsDownReachesTheRootsWaiter) {
    std::vector<tasync_scope_t *> levels;
    levels.push_back(scope());
    for (int i = 1; i < 10; ++i) levels.push_back(scope(levels.back()));
    go([&](tasync_coroutine_t *self) {
        delay(1);
        fail(self, "from the bottom");
    }, levels.back());
    bool root_task_cancelled = false;
    go([&](tasync_coroutine_t *) { root_task_cancelled = delay(60000) == -ECANCELED; }, levels[0]);
    tasync_scope_dispose(levels[1], TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    EXPECT_EQ(warnings_with("Coroutine is zombie at"), 1u);
    void *e = nullptr;
    EXPECT_EQ(await_scope(levels[0], &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "from the bottom");
    release_error(e);
    for (tasync_scope_t *s : levels) {
        EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FAILED);
        tasync_scope_release(s);
    }
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(root_task_cancelled);
}

TEST_F(Stress, ManyScopesComeAndGoWithoutLeaking) {
    for (int round = 0; round < 1000; ++round) {
        ScopeRef s(scope());
        ScopeRef child(scope(s));
        go([&](tasync_coroutine_t *) { tasync_yield(rt, nullptr); }, child);
        go([&](tasync_coroutine_t *self) { fail(self, "handled"); }, s);
        on_error(s, [](tasync_scope_t *, tasync_coroutine_t *, void *, void **) { return 0; });
        EXPECT_EQ(await_scope(s), 0);
        tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    }
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(host.warnings.empty());
}

TEST_F(Stress, DestroyingTheRuntimeWithLiveScopesReleasesEverything) {
    ScopeRef held(scope());
    ScopeRef child(scope(held));
    Value *v = host.value(1);
    tasync_context_key_t k{"k", 1, nullptr};
    tasync_context_set(tasync_scope_context(child), &k, v, 0);
    host.release(v);
    on_error(child, [](tasync_scope_t *, tasync_coroutine_t *, void *, void **) { return 0; });
    go([&](tasync_coroutine_t *) { delay(60000); }, child);
    go([&](tasync_coroutine_t *) { await_scope(child); }, held);
    tasync_scope_cancel(held, nullptr);
    tasync_scope_t *cancelled_but_running = scope();
    go([&](tasync_coroutine_t *) {
        tasync_protect_begin(rt);
        delay(60000);
    }, cancelled_but_running);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(cancelled_but_running, TASYNC_DISPOSE_AFTER_TIMEOUT, 60000 * kMs, nullptr);
    tasync_scope_release(cancelled_but_running);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_EQ(host.live_values, 0);
    EXPECT_EQ(host.live_errors, 0);
    // `held` and `child` are released, detached, at the end of the test.
}
