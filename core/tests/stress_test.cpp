// Scale and isolation: 100k coroutines in one run with memory returned, and
// two runtimes on two threads at once (no global mutable state).
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "tasync/core/runtime.hpp"
#include "tasync/core/stack_pool.hpp"
#include "test_host.hpp"

using namespace tasync_test;

class Stress : public RuntimeTest {};

TEST_F(Stress, HundredThousandCoroutinesCompleteAndMemoryIsReturned) {
    const int n = 100000;
    long sum = 0;
    for (int i = 0; i < n; ++i) {
        go([&, i](tasync_coroutine_t *) {
            tasync_yield(rt, nullptr);  // all of them alive at once
            sum += i;
        });
    }
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(sum, static_cast<long>(n) * (n - 1) / 2);
    const auto &st = rt->stacks->stats();
    EXPECT_EQ(st.live, 0u);
    // The burst's stacks stay warm for the next burst (issue 13)...
    EXPECT_EQ(st.cached, std::min<std::size_t>(n, tasync::detail::StackPool::kDefaultCacheMax));
    EXPECT_NE(rt->stacks->decay_deadline(), 0u) << "an idle runtime wakes up to give them back";
    // ...until a whole decay window passes without a use: then every slab
    // whose stacks were all returned is unmapped, and what stays mapped is
    // bounded by the minimum cache (128), not by the 100k peak.
    std::uint64_t now = rt->now();
    for (unsigned t = 0; t <= tasync::detail::StackPool::kDecayTicks + 1; ++t) {
        now += tasync::detail::StackPool::kDecayTickNs;
        rt->stacks->decay(now);
    }
    EXPECT_LE(st.cached, 128u) << "the pool keeps its minimum";
    EXPECT_LE(st.mapped_bytes, (128u + 64u) * rt->stacks->stack_size()) << st.mapped_bytes;
    EXPECT_GE(st.trims, static_cast<std::uint64_t>(n - 128 - 64));
    EXPECT_EQ(rt->stacks->decay_deadline(), 0u);
}

TEST_F(Stress, SteadyStateSpawningMakesNoNewMappings) {
    // Warm up, then spawn/finish many: the pool serves them all.
    auto wave = [&](int k) {
        for (int i = 0; i < k; ++i) go([](tasync_coroutine_t *) {});
        EXPECT_EQ(run(), 0);
    };
    wave(10);
    auto maps = rt->stacks->stats().slab_maps;
    auto guards = rt->stacks->stats().guard_installs;
    wave(10000);
    EXPECT_EQ(rt->stacks->stats().slab_maps, maps);
    EXPECT_EQ(rt->stacks->stats().guard_installs, guards);
}

TEST(StressThreads, TwoRuntimesOnTwoThreadsAtOnce) {
    std::atomic<int> ready{0};
    auto worker = [&](long *result) {
        TestHost host;
        tasync_runtime_options_t o{};
        o.size = sizeof(o);
        o.host = &host.table;
        o.host_data = &host;
        const char *b = std::getenv("TASYNC_TEST_BACKEND");
        o.backend = b;
        tasync_runtime_t *rt = nullptr;
        ASSERT_EQ(tasync_runtime_create(&o, &rt), 0);
        EXPECT_EQ(tasync_runtime_current(), rt);
        ++ready;
        while (ready.load() < 2) std::this_thread::yield();
        struct Ctx {
            tasync_runtime_t *rt;
            long *sum;
        } ctx{rt, result};
        for (int i = 0; i < 1000; ++i) {
            tasync_spawn_options_t so{};
            so.size = sizeof(so);
            so.entry = [](tasync_coroutine_t *, void *p) {
                auto *c = static_cast<Ctx *>(p);
                for (int k = 0; k < 10; ++k) {
                    tasync_yield(c->rt, nullptr);
                    ++*c->sum;
                }
                tasync_delay(c->rt, 1000000, nullptr, nullptr);
            };
            so.arg = &ctx;
            ASSERT_EQ(tasync_spawn(rt, &so, nullptr, nullptr), 0);
        }
        EXPECT_EQ(tasync_runtime_run(rt), 0);
        tasync_runtime_destroy(rt);
        EXPECT_EQ(tasync_runtime_current(), nullptr);
        EXPECT_EQ(host.live_errors, 0);
    };
    long a = 0, b = 0;
    std::thread t1(worker, &a), t2(worker, &b);
    t1.join();
    t2.join();
    EXPECT_EQ(a, 10000);
    EXPECT_EQ(b, 10000);
}

TEST(StressThreads, SecondRuntimeOnOneThreadIsRefused) {
    tasync_runtime_t *a = nullptr, *b = nullptr;
    ASSERT_EQ(tasync_runtime_create(nullptr, &a), 0);
    char err[128] = {0};
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    EXPECT_EQ(tasync_runtime_create(&o, &b), -EBUSY);
    EXPECT_STRNE(err, "");
    tasync_runtime_destroy(a);
}

TEST(StressDestroy, DestroyWithSuspendedCoroutinesReleasesEverything) {
    TestHost host;
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.host = &host.table;
    o.host_data = &host;
    tasync_runtime_t *rt = nullptr;
    ASSERT_EQ(tasync_runtime_create(&o, &rt), 0);
    static int released;
    released = 0;
    tasync_awaitable_t *fut = nullptr;
    tasync_future_create(rt, &fut);
    tasync_coroutine_t *kept = nullptr;
    for (int i = 0; i < 10; ++i) {
        tasync_spawn_options_t so{};
        so.size = sizeof(so);
        so.entry = [](tasync_coroutine_t *, void *f) {
            tasync_await(nullptr, static_cast<tasync_awaitable_t *>(f), nullptr, nullptr, nullptr);
        };
        so.arg = fut;
        so.arg_release = [](void *) { ++released; };
        ASSERT_EQ(tasync_spawn(rt, &so, i == 0 ? &kept : nullptr, nullptr), 0);
    }
    // Some never start, some wait on the future.
    tasync_yield(rt, nullptr);
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = [](tasync_coroutine_t *, void *) {};
    so.arg_release = [](void *) { ++released; };
    tasync_spawn(rt, &so, nullptr, nullptr);
    tasync_awaitable_release(fut);
    tasync_runtime_destroy(rt);
    EXPECT_EQ(released, 11);
    // The host still holds one coroutine: it is detached, not freed.
    EXPECT_TRUE(tasync_coroutine_flags(kept) & TASYNC_CO_COMPLETED);
    tasync_coroutine_release(kept);
    EXPECT_EQ(host.live_errors, 0);
}
