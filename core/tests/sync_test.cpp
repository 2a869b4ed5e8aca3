// Mechanics of channels, pools and derived futures (core/src/sync,
// core/src/await/future.cpp): dead waiters skipped where they are met,
// references that keep objects alive across waits and the host's
// callbacks, the deadline a wait reports. The rules themselves (T1-T3) are
// proven in conformance/rules.
#include <vector>

#include "test_host.hpp"

using namespace tasync_test;

namespace {

class Sync : public RuntimeTest {
protected:
    tasync_channel_t *channel(uint64_t capacity) {
        tasync_channel_options_t o{};
        o.size = sizeof(o);
        o.capacity = capacity;
        tasync_channel_t *ch = nullptr;
        EXPECT_EQ(tasync_channel_create(rt, &o, &ch), 0);
        return ch;
    }
    void yield_n(int n) {
        for (int i = 0; i < n; ++i) EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    }
    tasync_channel_info_t info(tasync_channel_t *ch) {
        tasync_channel_info_t i{};
        i.size = sizeof(i);
        EXPECT_EQ(tasync_channel_info(ch, &i), 0);
        return i;
    }
};

}  // namespace

// Receivers cancelled while they wait stay linked until they run; a send
// skips them (and drops them from the line) to reach the first live one.
TEST_F(Sync, ChannelSkipsDeadWaitersAtTheFrontOfItsLine) {
    tasync_channel_t *ch = channel(0);
    std::vector<tasync_coroutine_t *> cos;
    long got = -1;
    for (int i = 0; i < 100; ++i) {
        cos.push_back(spawn([&, i](tasync_coroutine_t *) {
            void *v = nullptr;
            if (tasync_channel_recv(rt, ch, nullptr, 0, &v, nullptr) == 0) {
                got = i;
                host.release(static_cast<Value *>(v));
            }
        }));
    }
    yield_n(1);
    EXPECT_EQ(info(ch).receivers, 100u);
    for (int i = 0; i < 99; ++i) tasync_coroutine_cancel(cos[static_cast<size_t>(i)], nullptr);
    EXPECT_EQ(info(ch).receivers, 1u) << "woken by the cancellation, not yet run: no longer counted";
    Value *v = host.value(5);
    EXPECT_EQ(tasync_channel_try_send(ch, v), 0) << "the 100th still waits";
    host.release(v);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 99);
    for (tasync_coroutine_t *co : cos) tasync_coroutine_release(co);
    tasync_channel_release(ch);
}

// A coroutine waiting on a channel holds it: the host's last release does
// not free it under the waiter; the waiter leaving frees it.
TEST_F(Sync, ACoroutineWaitingOnAChannelKeepsIt) {
    tasync_channel_t *ch = channel(1);
    Value *v = host.value(1);
    EXPECT_EQ(tasync_channel_try_send(ch, v), 0);
    host.release(v);
    int rc = 0;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        Value *w = host.value(2);
        rc = tasync_channel_send(rt, ch, w, nullptr, 0, nullptr);  // full: waits
        host.release(w);
    });
    yield_n(1);
    tasync_channel_release(ch);  // the host's only reference
    EXPECT_EQ(host.live_values, 2) << "the buffered value and the waiting one are still the channel's";
    EXPECT_EQ(tasync_coroutine_cancel(co, nullptr), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(rc, -ECANCELED);
    EXPECT_EQ(host.live_values, 0) << "the waiter left: the channel went, its values with it";
    tasync_coroutine_release(co);
}

TEST_F(Sync, AWaitWithATimeoutReportsItsDeadline) {
    tasync_channel_t *ch = channel(0);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        tasync_channel_recv(rt, ch, nullptr, 500 * kMs, nullptr, nullptr);
    });
    const uint64_t before = tasync_runtime_now(rt);
    yield_n(1);
    tasync_wait_info_t wi{};
    wi.size = sizeof(wi);
    ASSERT_EQ(tasync_coroutine_wait_info(co, &wi), 0);
    EXPECT_EQ(wi.kind, static_cast<uint32_t>(TASYNC_WAIT_CHANNEL_RECV));
    EXPECT_GE(wi.deadline_ns, before + 500 * kMs);
    EXPECT_LE(wi.deadline_ns, tasync_runtime_now(rt) + 500 * kMs);
    EXPECT_EQ(tasync_channel_close(ch, TASYNC_CHANNEL_CLOSED_EXPLICIT), 0);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
    tasync_channel_release(ch);
}

// A derivation that holds the last reference of its source releases it
// while the source completes (catch of a success passes it on at once): the
// source outlives its own completion loop (tasync_awaitable::complete).
TEST_F(Sync, ASourceOutlivesTheCompletionThatReleasesIt) {
    tasync_awaitable_t *t = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 1 * kMs, &t), 0);
    bool released = false;
    tasync_spawn_options_t o{};
    o.size = sizeof(o);
    o.entry = [](tasync_coroutine_t *, void *) {};
    o.arg = &released;
    o.arg_release = [](void *a) { *static_cast<bool *>(a) = true; };
    tasync_awaitable_t *d = nullptr;
    ASSERT_EQ(tasync_future_then(t, TASYNC_FUTURE_THEN_CATCH, &o, 0, &d), 0);
    tasync_awaitable_release(t);  // the derivation holds the only reference
    EXPECT_EQ(tasync_await(rt, d, nullptr, nullptr, nullptr), 0);
    EXPECT_TRUE(released) << "catch skipped its callback for a success";
    tasync_awaitable_release(d);
    EXPECT_EQ(run(), 0);
}

namespace {

struct SlowCreate {
    RuntimeTest *t = nullptr;
    TestHost *host = nullptr;
    tasync_runtime_t *rt = nullptr;
    bool data_released = false;
};

}  // namespace

// The host releases a pool while a coroutine is inside its create callback
// (suspended): the call holds the pool, which lends the new resource and
// goes when that resource comes back.
TEST_F(Sync, APoolReleasedDuringACreateGoesWhenItsLastResourceComesBack) {
    SlowCreate s{this, &host, rt};
    tasync_pool_callbacks_t c{};
    c.size = sizeof(c);
    c.data = &s;
    c.create = [](void *d, tasync_pool_t *, void **out, void **) -> int {
        auto *sc = static_cast<SlowCreate *>(d);
        int rc = tasync_delay(sc->rt, 2 * kMs, nullptr, nullptr);
        if (rc != 0) return rc;
        *out = sc->host->value(7);
        return 0;
    };
    c.release_data = [](void *d) { static_cast<SlowCreate *>(d)->data_released = true; };
    tasync_pool_t *p = nullptr;
    ASSERT_EQ(tasync_pool_create(rt, nullptr, &c, &p), 0);
    void *got = nullptr;
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_pool_acquire(rt, p, nullptr, 0, &got, nullptr), 0);
    });
    yield_n(1);
    tasync_pool_release(p);
    EXPECT_FALSE(s.data_released) << "the acquiring call holds the pool";
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_EQ(tasync_delay(rt, 5 * kMs, nullptr, nullptr), 0);
    ASSERT_NE(got, nullptr) << "created and lent after the host's release";
    EXPECT_EQ(run(), 0);
    // The coroutine ended holding it: the resource came back, the released
    // pool had nothing left and went.
    EXPECT_TRUE(s.data_released);
    tasync_value_release(rt, got);
    tasync_coroutine_release(co);
}
