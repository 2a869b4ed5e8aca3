// Rule T2: futures (future.h): single assignment, locations, the report of
// a failure nobody observed (S10), derived futures (map, catch, finally).
#include <string>
#include <vector>

#include "rules.hpp"

using namespace tasync_rules;

class Future : public Rules {
protected:
    tasync_awaitable_t *future(uint32_t flags = TASYNC_FUTURE_REPORT_UNOBSERVED) {
        tasync_future_options_t o{};
        o.size = sizeof(o);
        o.flags = flags;
        tasync_awaitable_t *f = nullptr;
        EXPECT_EQ(tasync_future_create_ex(rt, &o, &f), 0);
        return f;
    }

    void resolve(tasync_awaitable_t *f, long v) {
        Value *val = host.value(v);
        EXPECT_EQ(tasync_future_complete(f, val, nullptr, nullptr), 0);
        host.release(val);
    }

    void reject(tasync_awaitable_t *f, const std::string &msg) {
        Error *e = exception(msg);
        EXPECT_EQ(tasync_future_complete(f, nullptr, e, nullptr), 0);
        host.release(e);
    }

    // "v:<n>" or "e:<message>" for an awaitable's outcome, awaited.
    std::string await_text(tasync_awaitable_t *aw) {
        void *v = nullptr, *e = nullptr;
        int rc = tasync_await(rt, aw, nullptr, &v, &e);
        std::string s = rc == 0 ? "v:" + std::to_string(v != nullptr ? static_cast<Value *>(v)->v : -1)
                                : "e:" + message_of(e);
        release_value(v);
        release_error(e);
        return s;
    }

    // A derivation whose callback says "<tag> saw <outcome of source>" and
    // then ends with value `ret` (or fails with `fail` when not empty).
    tasync_awaitable_t *then(tasync_awaitable_t *source, uint32_t mode, const std::string &tag, long ret,
                             const std::string &fail = "", uint32_t flags = TASYNC_FUTURE_REPORT_UNOBSERVED) {
        tasync_spawn_options_t o = callback([this, source, tag, ret, fail](tasync_coroutine_t *self) {
            void *v = nullptr, *e = nullptr;
            int rc = tasync_awaitable_outcome(source, &v, &e);
            say(tag + " saw " + (rc == 0 ? std::to_string(static_cast<Value *>(v)->v) : message_of(e)));
            if (!fail.empty()) {
                this->fail(self, fail);
                return;
            }
            Value *r = host.value(ret);
            tasync_coroutine_set_result(self, r);
            host.release(r);
        });
        tasync_awaitable_t *d = nullptr;
        EXPECT_EQ(tasync_future_then(source, mode, &o, flags, &d), 0);
        return d;
    }

    using V = std::vector<std::string>;
};

TEST_F(Future, T2_ASecondCompletionIsAnErrorThatSaysWhereTheFirstWas) {
    host.location_line = 10;
    tasync_awaitable_t *f = future(0);
    tasync_location_t created = tasync_future_created_location(f);
    ASSERT_NE(created.file, nullptr);
    EXPECT_EQ(created.line, 11u);
    resolve(f, 1);
    EXPECT_EQ(tasync_future_completed_location(f).line, 12u);
    Value *v = host.value(2);
    void *e = nullptr;
    EXPECT_EQ(tasync_future_complete(f, v, nullptr, &e), TASYNC_EFUTURE_COMPLETED);
    EXPECT_EQ(message_of(e), "The future has already been completed at test.php:12");
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
    release_error(e);
    Error *err = exception("late");
    EXPECT_EQ(tasync_future_complete(f, nullptr, err, nullptr), TASYNC_EFUTURE_COMPLETED);
    host.release(err);
    host.release(v);
    EXPECT_EQ(await_text(f), "v:1") << "the first completion stays";
    EXPECT_EQ(tasync_future_resolve(f, nullptr), TASYNC_EBAD_STATE) << "the ABI 1.0 functions keep their code";
    EXPECT_EQ(run(), 0);
    tasync_awaitable_release(f);
}

TEST_F(Future, T2_AFailureNobodyObservedIsReportedInTheScopeOfItsCreation) {
    ScopeRef s(scope());
    std::vector<std::string> seen;
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *co, void *e, void **) {
        seen.push_back(message_of(e) + (co != nullptr ? " from a coroutine" : ""));
        return 0;
    });
    tasync_awaitable_t *f = nullptr;
    tasync_coroutine_release(spawn([&](tasync_coroutine_t *) { f = future(); }, s));
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    ASSERT_NE(f, nullptr);
    reject(f, "lost");
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_TRUE(seen.empty()) << "reported when the last reference goes, not before";
    tasync_awaitable_release(f);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(seen, (V{"lost from a coroutine"})) << "as a coroutine failing unobserved in that scope (S10)";
    EXPECT_EQ(run(), 0);
}

TEST_F(Future, T2_AnAwaitedIgnoredOrCancelledFailureIsNotReported) {
    tasync_awaitable_t *awaited = future();
    tasync_awaitable_t *ignored = future();
    tasync_awaitable_t *cancelled = future();
    tasync_awaitable_t *plain = future(0);
    tasync_awaitable_observe(ignored);  // Future::ignore(), before the failure
    reject(awaited, "a");
    reject(ignored, "b");
    Error *c = cancellation("c");
    EXPECT_EQ(tasync_future_complete(cancelled, nullptr, c, nullptr), 0);
    host.release(c);
    reject(plain, "d");
    EXPECT_EQ(await_text(awaited), "e:a");
    for (tasync_awaitable_t *f : {awaited, ignored, cancelled, plain}) tasync_awaitable_release(f);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "nothing reached the global scope";
}

TEST_F(Future, T2_AFailureStillUnobservedAtTheEndFailsTheProgram) {
    tasync_awaitable_t *f = future();
    reject(f, "kept");
    EXPECT_EQ(run(), TASYNC_EFAILED) << "as a coroutine handle kept with its error (S10)";
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(message_of(e), "kept");
    release_error(e);
    tasync_awaitable_release(f);
}

TEST_F(Future, T2_MapRunsOnSuccessAndPassesAFailureOn) {
    tasync_awaitable_t *ok = future();
    tasync_awaitable_t *bad = future();
    tasync_awaitable_t *m1 = then(ok, TASYNC_FUTURE_THEN_MAP, "map1", 20);
    tasync_awaitable_t *m2 = then(bad, TASYNC_FUTURE_THEN_MAP, "map2", 0);
    resolve(ok, 10);
    reject(bad, "broken");
    EXPECT_EQ(await_text(m1), "v:20");
    EXPECT_EQ(await_text(m2), "e:broken");
    EXPECT_EQ(out, (V{"map1 saw 10"})) << "map's callback does not run for a failure";
    for (tasync_awaitable_t *f : {ok, bad, m1, m2}) tasync_awaitable_release(f);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "the source's failure went to the derived future";
}

TEST_F(Future, T2_CatchRunsOnFailureAndPassesAValueOn) {
    tasync_awaitable_t *ok = future();
    tasync_awaitable_t *bad = future();
    tasync_awaitable_t *c1 = then(ok, TASYNC_FUTURE_THEN_CATCH, "catch1", 0);
    tasync_awaitable_t *c2 = then(bad, TASYNC_FUTURE_THEN_CATCH, "catch2", 7);
    tasync_awaitable_t *c3 = then(bad, TASYNC_FUTURE_THEN_CATCH, "catch3", 0, "again");
    resolve(ok, 1);
    reject(bad, "broken");
    EXPECT_EQ(await_text(c1), "v:1");
    EXPECT_EQ(await_text(c2), "v:7") << "recovered";
    EXPECT_EQ(await_text(c3), "e:again") << "the callback's own failure";
    EXPECT_EQ(out, (V{"catch2 saw broken", "catch3 saw broken"}));
    for (tasync_awaitable_t *f : {ok, bad, c1, c2, c3}) tasync_awaitable_release(f);
    EXPECT_EQ(run(), 0);
}

TEST_F(Future, T2_FinallyAlwaysRunsAndKeepsTheOutcomeUnlessItFails) {
    tasync_awaitable_t *ok = future();
    tasync_awaitable_t *bad = future();
    tasync_awaitable_t *f1 = then(ok, TASYNC_FUTURE_THEN_FINALLY, "fin1", 99);
    tasync_awaitable_t *f2 = then(bad, TASYNC_FUTURE_THEN_FINALLY, "fin2", 99);
    tasync_awaitable_t *f3 = then(ok, TASYNC_FUTURE_THEN_FINALLY, "fin3", 0, "cleanup failed");
    resolve(ok, 5);
    reject(bad, "broken");
    EXPECT_EQ(await_text(f1), "v:5") << "the callback's value is not the outcome";
    EXPECT_EQ(await_text(f2), "e:broken");
    EXPECT_EQ(await_text(f3), "e:cleanup failed");
    EXPECT_EQ(out, (V{"fin1 saw 5", "fin3 saw 5", "fin2 saw broken"})) << "in registration order per source";
    for (tasync_awaitable_t *f : {ok, bad, f1, f2, f3}) tasync_awaitable_release(f);
    EXPECT_EQ(run(), 0);
}

TEST_F(Future, T2_ACallbackRunsInACoroutineThatMaySuspendAndStartsAfterTheCompletingCode) {
    tasync_awaitable_t *src = future();
    tasync_spawn_options_t o = callback([this](tasync_coroutine_t *self) {
        say("callback starts");
        EXPECT_EQ(delay(2), 0);
        Value *v = host.value(3);
        tasync_coroutine_set_result(self, v);
        host.release(v);
    });
    tasync_awaitable_t *d = nullptr;
    ASSERT_EQ(tasync_future_then(src, TASYNC_FUTURE_THEN_MAP, &o, 0, &d), 0);
    resolve(src, 1);
    say("completed");
    EXPECT_EQ(await_text(d), "v:3");
    EXPECT_EQ(out, (V{"completed", "callback starts"})) << "spawned, it starts when the completer suspends (C1)";
    // A source that completed already: the callback is spawned at once.
    tasync_awaitable_t *late = then(src, TASYNC_FUTURE_THEN_MAP, "late", 4);
    EXPECT_EQ(await_text(late), "v:4");
    for (tasync_awaitable_t *f : {src, d, late}) tasync_awaitable_release(f);
    EXPECT_EQ(run(), 0);
}

// A coroutine's failure taken over by a derived future does not flow up
// its scope; the derived future's own failure, unobserved, is reported.
TEST_F(Future, T2_ADerivedFutureAnswersForItsSourcesFailure) {
    ScopeRef s(scope());
    std::vector<std::string> seen;
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        seen.push_back(message_of(e));
        return 0;
    });
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "task failed"); }, s);
    tasync_awaitable_t *d = nullptr;
    {
        tasync_spawn_options_t o = callback([](tasync_coroutine_t *) {});
        o.scope = s;
        ASSERT_EQ(tasync_future_then(tasync_coroutine_awaitable(co), TASYNC_FUTURE_THEN_MAP, &o,
                                     TASYNC_FUTURE_REPORT_UNOBSERVED, &d),
                  0);
    }
    tasync_coroutine_release(co);
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_TRUE(seen.empty()) << "the coroutine's error went to the derived future";
    ASSERT_TRUE(tasync_awaitable_is_completed(d));
    tasync_awaitable_release(d);  // nobody observed the derived future
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(seen, (V{"task failed"}));
    EXPECT_EQ(run(), 0);
}

TEST_F(Future, T2_PendingDerivationsGoWithTheRuntime) {
    tasync_awaitable_t *src = future();
    tasync_awaitable_t *d1 = then(src, TASYNC_FUTURE_THEN_FINALLY, "never", 0);
    tasync_awaitable_t *done = future();
    tasync_awaitable_t *d2 = then(done, TASYNC_FUTURE_THEN_MAP, "suspends", 0);
    resolve(done, 1);
    tasync_runtime_destroy(rt);  // d2's callback never started, d1's source never completed
    rt = nullptr;
    EXPECT_TRUE(out.empty());
    for (tasync_awaitable_t *f : {src, d1, done, d2}) tasync_awaitable_release(f);
}

TEST_F(Future, T2_ThenRefusesWhatItCannotRun) {
    tasync_awaitable_t *src = future(0);
    bool released = false;
    tasync_spawn_options_t o{};
    o.size = sizeof(o);
    o.entry = [](tasync_coroutine_t *, void *) {};
    o.arg = &released;
    o.arg_release = [](void *a) { *static_cast<bool *>(a) = true; };
    tasync_awaitable_t *d = nullptr;
    EXPECT_EQ(tasync_future_then(src, 9, &o, 0, &d), -EINVAL);
    EXPECT_TRUE(released) << "arg_release runs on failure";
    EXPECT_EQ(d, nullptr);
    tasync_awaitable_release(src);
    EXPECT_EQ(run(), 0);
}

TEST_F(Future, T2_AHostMayCompleteADerivedFutureFirst) {
    tasync_awaitable_t *src = future();
    tasync_awaitable_t *d = then(src, TASYNC_FUTURE_THEN_MAP, "map", 2);
    resolve(d, 99);  // e.g. the PHP Future was cancelled
    resolve(src, 1);
    EXPECT_EQ(await_text(d), "v:99") << "single assignment: the derivation's outcome is dropped";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"map saw 1"}));
    for (tasync_awaitable_t *f : {src, d}) tasync_awaitable_release(f);
}
