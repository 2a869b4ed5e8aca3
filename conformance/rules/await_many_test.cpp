// Rule G2: awaiting many awaitables with one primitive (await_many.h).
#include <string>
#include <vector>

#include "rules.hpp"

using namespace tasync_rules;

class AwaitMany : public Rules {
protected:
    tasync_await_many_t *set(uint32_t mode, uint64_t count = 0) {
        tasync_await_many_options_t o{};
        o.size = sizeof(o);
        o.mode = mode;
        o.count = count;
        tasync_await_many_t *m = nullptr;
        EXPECT_EQ(tasync_await_many_create(rt, &o, &m), 0);
        return m;
    }

    // A coroutine that returns value after ms, or fails with msg.
    tasync_coroutine_t *task(long value, uint64_t ms, const char *msg = nullptr, tasync_scope_t *scope = nullptr) {
        return spawn(
            [this, value, ms, msg](tasync_coroutine_t *self) {
                if (ms > 0) delay(ms);
                if (msg != nullptr) {
                    fail(self, msg);
                    return;
                }
                Value *v = host.value(value);
                tasync_coroutine_set_result(self, v);
                host.release(v);
            },
            scope);
    }

    void add(tasync_await_many_t *m, tasync_coroutine_t *co) {
        EXPECT_EQ(tasync_await_many_add(m, tasync_coroutine_awaitable(co)), 0);
    }

    // "index:value" / "index:!message" / "index:-" for each entry.
    std::vector<std::string> entries(tasync_await_many_t *m, bool by_completion) {
        std::vector<std::string> v;
        size_t n = by_completion ? tasync_await_many_taken_count(m) : tasync_await_many_count(m);
        for (size_t i = 0; i < n; ++i) {
            tasync_await_many_entry_t e{};
            e.size = sizeof(e);
            EXPECT_EQ(tasync_await_many_entry(m, i, by_completion ? 1 : 0, &e), 0);
            std::string s = std::to_string(e.index) + ":";
            if (e.state == TASYNC_AWAIT_ITEM_SUCCEEDED) s += std::to_string(static_cast<Value *>(e.value)->v);
            else if (e.state == TASYNC_AWAIT_ITEM_FAILED) s += "!" + message_of(e.error);
            else s += "-";
            v.push_back(s);
        }
        return v;
    }

    int wait(tasync_await_many_t *m, std::string *error = nullptr, tasync_awaitable_t *cancellation = nullptr) {
        void *e = nullptr;
        int rc = tasync_await_many_wait(rt, m, cancellation, &e);
        if (error != nullptr) *error = e != nullptr ? message_of(e) : "";
        release_error(e);
        return rc;
    }

    using V = std::vector<std::string>;
};

TEST_F(AwaitMany, G2_AllWaitsForEveryItemAndKeepsFeedAndCompletionOrder) {
    tasync_await_many_t *m = set(TASYNC_AWAIT_ALL);
    std::vector<tasync_coroutine_t *> cos = {task(1, 6), task(0, 2, "failed"), task(3, 4)};
    for (auto *c : cos) add(m, c);
    EXPECT_EQ(wait(m), 0) << "ALL never fails";
    EXPECT_EQ(entries(m, false), (V{"0:1", "1:!failed", "2:3"}));
    EXPECT_EQ(entries(m, true), (V{"1:!failed", "2:3", "0:1"}));
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "a failure the set took is handled (S10)";
    tasync_await_many_destroy(m);
    for (auto *c : cos) tasync_coroutine_release(c);
}

TEST_F(AwaitMany, G2_AllOrFailFailsAtOnceAndTheOthersGoOnUnawaited) {
    ScopeRef s(scope());
    std::vector<std::string> handled;
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        handled.push_back(message_of(e));
        return 0;
    });
    tasync_await_many_t *m = set(TASYNC_AWAIT_ALL_OR_FAIL);
    std::vector<tasync_coroutine_t *> cos = {task(1, 30, nullptr, s), task(0, 2, "first", s),
                                             task(0, 10, "second", s)};
    for (auto *c : cos) add(m, c);
    std::string err;
    EXPECT_EQ(wait(m, &err), TASYNC_EFAILED);
    EXPECT_EQ(err, "first");
    EXPECT_FALSE(flags(cos[0]) & TASYNC_CO_COMPLETED) << "decided at the first failure";
    EXPECT_EQ(entries(m, false), (V{"0:-", "1:!first", "2:-"}));
    // No handle is left (S10): a failure nobody awaits goes to the scope.
    for (auto *c : cos) tasync_coroutine_release(c);
    cos.clear();
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(handled, (V{"second"})) << "once decided, the set awaits nothing: a later failure flows (S10)";
    EXPECT_EQ(entries(m, true), (V{"1:!first"})) << "nothing is taken after the decision";
    EXPECT_EQ(run(), 0);
    tasync_await_many_destroy(m);
    for (auto *c : cos) tasync_coroutine_release(c);
}

TEST_F(AwaitMany, G2_AnyOrFailTakesTheFirstOutcome) {
    tasync_await_many_t *m = set(TASYNC_AWAIT_ANY_OR_FAIL);
    std::vector<tasync_coroutine_t *> cos = {task(1, 20), task(2, 2), task(3, 5)};
    for (auto *c : cos) add(m, c);
    EXPECT_EQ(wait(m), 0);
    EXPECT_EQ(entries(m, true), (V{"1:2"}));
    void *v = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_await_many_awaitable(m), nullptr, &v, nullptr), 0);
    EXPECT_EQ(static_cast<Value *>(v)->v, 2) << "the set, as an awaitable, completes with the winner's value";
    release_value(v);
    tasync_await_many_destroy(m);

    m = set(TASYNC_AWAIT_ANY_OR_FAIL);
    tasync_coroutine_t *failing = task(0, 1, "fast failure");
    tasync_coroutine_t *slow = task(7, 20);
    add(m, failing);
    add(m, slow);
    std::string err;
    EXPECT_EQ(wait(m, &err), TASYNC_EFAILED);
    EXPECT_EQ(err, "fast failure");
    tasync_await_many_destroy(m);
    EXPECT_EQ(run(), 0);
    for (auto *c : cos) tasync_coroutine_release(c);
    tasync_coroutine_release(failing);
    tasync_coroutine_release(slow);
}

TEST_F(AwaitMany, G2_FirstSuccessSkipsFailuresAndFailsWhenAllFailed) {
    tasync_await_many_t *m = set(TASYNC_AWAIT_FIRST_SUCCESS);
    // Completion times far apart (1, 15, 60, 120 ms), so that a slow build
    // (ASan) keeps their order.
    std::vector<tasync_coroutine_t *> cos = {task(0, 1, "a"), task(5, 60), task(0, 15, "b"), task(9, 120)};
    for (auto *c : cos) add(m, c);
    EXPECT_EQ(wait(m), 0);
    EXPECT_EQ(entries(m, true), (V{"0:!a", "2:!b", "1:5"}));
    tasync_await_many_destroy(m);

    m = set(TASYNC_AWAIT_FIRST_SUCCESS);
    std::vector<tasync_coroutine_t *> bad = {task(0, 40, "later"), task(0, 1, "earlier")};
    for (auto *c : bad) add(m, c);
    std::string err;
    EXPECT_EQ(wait(m, &err), TASYNC_EFAILED);
    EXPECT_EQ(err, "earlier") << "the first failure in completion order";
    EXPECT_EQ(entries(m, true), (V{"1:!earlier", "0:!later"}));
    tasync_await_many_destroy(m);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    for (auto *c : cos) tasync_coroutine_release(c);
    for (auto *c : bad) tasync_coroutine_release(c);
}

TEST_F(AwaitMany, G2_AnyOfTakesCountSuccesses) {
    tasync_await_many_t *m = set(TASYNC_AWAIT_ANY_OF, 2);
    std::vector<tasync_coroutine_t *> cos = {task(1, 30), task(0, 1, "skipped"), task(3, 4), task(4, 8)};
    for (auto *c : cos) add(m, c);
    EXPECT_EQ(wait(m), 0);
    EXPECT_EQ(entries(m, true), (V{"1:!skipped", "2:3", "3:4"}));
    EXPECT_EQ(entries(m, false), (V{"0:-", "1:!skipped", "2:3", "3:4"}));
    tasync_await_many_destroy(m);

    m = set(TASYNC_AWAIT_ANY_OF_OR_FAIL, 2);
    std::vector<tasync_coroutine_t *> more = {task(1, 2), task(0, 4, "fails"), task(3, 8)};
    for (auto *c : more) add(m, c);
    std::string err;
    EXPECT_EQ(wait(m, &err), TASYNC_EFAILED);
    EXPECT_EQ(err, "fails");
    tasync_await_many_destroy(m);

    m = set(TASYNC_AWAIT_ANY_OF, 5);
    std::vector<tasync_coroutine_t *> few = {task(1, 1), task(2, 2)};
    for (auto *c : few) add(m, c);
    EXPECT_EQ(wait(m), 0) << "more wanted than there are: every item is waited for";
    EXPECT_EQ(entries(m, true), (V{"0:1", "1:2"}));
    tasync_await_many_destroy(m);

    m = set(TASYNC_AWAIT_ANY_OF, 0);
    EXPECT_TRUE(tasync_await_many_is_decided(m)) << "none wanted: decided at once";
    tasync_coroutine_t *ignored = task(1, 1);
    add(m, ignored);
    EXPECT_EQ(wait(m), 0);
    EXPECT_EQ(entries(m, false), (V{"0:-"}));
    tasync_await_many_destroy(m);
    EXPECT_EQ(run(), 0);
    for (auto *c : cos) tasync_coroutine_release(c);
    for (auto *c : more) tasync_coroutine_release(c);
    for (auto *c : few) tasync_coroutine_release(c);
    tasync_coroutine_release(ignored);
}

TEST_F(AwaitMany, G2_ItemsAreSubscribedAsTheyAreFed) {
    // A producer that suspends between items (a PHP generator doing I/O):
    // the first item fails meanwhile; the set has it, nothing escalates.
    tasync_await_many_t *m = set(TASYNC_AWAIT_ALL);
    tasync_coroutine_t *a = task(0, 1, "failed while the producer was busy");
    add(m, a);
    delay(10);
    EXPECT_TRUE(flags(a) & TASYNC_CO_COMPLETED);
    EXPECT_EQ(tasync_await_many_taken_count(m), 1u) << "recorded without anyone waiting yet";
    tasync_coroutine_t *b = task(2, 1);
    add(m, b);
    EXPECT_EQ(wait(m), 0);
    EXPECT_EQ(entries(m, true), (V{"0:!failed while the producer was busy", "1:2"}));
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "the failure was the set's";
    tasync_await_many_destroy(m);
    tasync_coroutine_release(a);
    tasync_coroutine_release(b);
}

TEST_F(AwaitMany, G2_AProducerThatStopsMidwayLeavesNothingSubscribed) {
    ScopeRef s(scope());
    std::vector<std::string> handled;
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        handled.push_back(message_of(e));
        return 0;
    });
    tasync_await_many_t *m = set(TASYNC_AWAIT_ALL_OR_FAIL);
    tasync_coroutine_t *a = task(1, 5, nullptr, s);
    tasync_coroutine_t *b = task(0, 5, "after the producer failed", s);
    add(m, a);
    add(m, b);
    // The producer throws: the host destroys the set without waiting.
    tasync_await_many_destroy(m);
    // The host drops its handles too (S10: a held handle keeps the error).
    tasync_coroutine_release(a);
    tasync_coroutine_release(b);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(handled, (V{"after the producer failed"})) << "no stale subscription hides the failure";
    EXPECT_EQ(run(), 0);
}

TEST_F(AwaitMany, G2_CompletedItemsAreTakenInFeedOrder) {
    tasync_coroutine_t *a = task(1, 0);
    tasync_coroutine_t *b = task(2, 0);
    tasync_yield(rt, nullptr);
    ASSERT_TRUE(flags(a) & TASYNC_CO_COMPLETED);
    tasync_await_many_t *m = set(TASYNC_AWAIT_ANY_OR_FAIL);
    add(m, b);
    add(m, a);
    EXPECT_TRUE(tasync_await_many_is_decided(m)) << "decided by the first completed item fed";
    EXPECT_EQ(wait(m), 0);
    EXPECT_EQ(entries(m, true), (V{"0:2"}));
    EXPECT_EQ(entries(m, false), (V{"0:2", "1:-"}));
    tasync_await_many_destroy(m);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(a);
    tasync_coroutine_release(b);
}

TEST_F(AwaitMany, G2_AWaitCancelledByItsCancellationLeavesTheSetAsItWas) {
    tasync_await_many_t *m = set(TASYNC_AWAIT_ALL);
    tasync_coroutine_t *slow = task(4, 20);
    add(m, slow);
    tasync_awaitable_t *t = timeout_ms(2);
    std::string err;
    EXPECT_EQ(wait(m, &err, t), TASYNC_EAWAIT_CANCELLED);
    tasync_awaitable_release(t);
    EXPECT_FALSE(tasync_await_many_is_decided(m));
    EXPECT_EQ(wait(m), 0) << "waited for again";
    EXPECT_EQ(entries(m, true), (V{"0:4"}));
    EXPECT_EQ(tasync_await_many_add(m, tasync_coroutine_awaitable(slow)), TASYNC_EBAD_STATE) << "sealed";
    tasync_await_many_destroy(m);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(slow);
}

TEST_F(AwaitMany, G2_TheCallerCannotBeAnItemAndEmptySetsDoNotHang) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        tasync_await_many_t *m = set(TASYNC_AWAIT_ALL);
        EXPECT_EQ(tasync_await_many_add(m, tasync_coroutine_awaitable(self)), 0);
        void *e = nullptr;
        EXPECT_EQ(tasync_await_many_wait(rt, m, nullptr, &e), TASYNC_ESELF_AWAIT);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
        say(message_of(e).substr(0, 31));
        release_error(e);
        tasync_await_many_destroy(m);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A coroutine cannot await itself"}));
    for (uint32_t mode : {TASYNC_AWAIT_ALL, TASYNC_AWAIT_ALL_OR_FAIL, TASYNC_AWAIT_ANY_OF}) {
        tasync_await_many_t *m = set(mode, 1);
        EXPECT_EQ(wait(m), 0) << "mode " << mode << " of nothing is decided when sealed";
        tasync_await_many_destroy(m);
    }
    for (uint32_t mode : {TASYNC_AWAIT_ANY_OR_FAIL, TASYNC_AWAIT_FIRST_SUCCESS}) {
        tasync_await_many_t *m = set(mode);
        EXPECT_EQ(wait(m), -EINVAL) << "mode " << mode << " of nothing would wait forever";
        tasync_await_many_destroy(m);
    }
    tasync_await_many_options_t o{};
    o.size = sizeof(o);
    o.mode = 99;
    tasync_await_many_t *bad = nullptr;
    EXPECT_EQ(tasync_await_many_create(rt, &o, &bad), -EINVAL);
    tasync_coroutine_release(co);
}

TEST_F(AwaitMany, G2_ManyItemsCompletingTogetherWakeTheWaiterOnce) {
    constexpr long kItems = 2000;
    std::vector<tasync_coroutine_t *> cos;
    for (long i = 0; i < kItems; ++i) cos.push_back(task(i, 5));
    uint64_t waiter_id = 0;
    tasync_coroutine_t *waiter = spawn([&](tasync_coroutine_t *self) {
        waiter_id = tasync_coroutine_id(self);
        tasync_await_many_t *m = set(TASYNC_AWAIT_ALL);
        for (auto *c : cos) add(m, c);
        host.trace_switches = true;
        EXPECT_EQ(wait(m), 0);
        host.trace_switches = false;
        EXPECT_EQ(tasync_await_many_taken_count(m), static_cast<size_t>(kItems));
        tasync_await_many_destroy(m);
    });
    EXPECT_EQ(run(), 0);
    size_t resumes = 0;
    for (const std::string &t : host.trace) resumes += t == "enter " + std::to_string(waiter_id);
    EXPECT_EQ(resumes, 1u) << "one wake-up for the whole set, not one per item";
    tasync_coroutine_release(waiter);
    for (auto *c : cos) tasync_coroutine_release(c);
}
