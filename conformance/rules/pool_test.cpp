// Rule T3: resource pools (pool.h): at most max resources, waiters served
// in order with what comes back reserved for them, the host's callbacks in
// the right coroutines, health checks, closing, resources whose coroutine
// ended, and the circuit breaker.
#include <algorithm>
#include <string>
#include <vector>

#include "rules.hpp"

using namespace tasync_rules;

class Pool : public Rules {
protected:
    // The host side: resources are Values numbered from 1; each callback
    // logs what it does into `calls`.
    struct Side {
        Pool *t = nullptr;
        long next = 1;
        int create_delay_ms = 0;
        std::string fail_create;                // create fails with this message
        std::vector<long> refuse_acquire;       // before_acquire says no
        std::vector<long> refuse_release;       // before_release says no
        std::vector<long> unhealthy;            // healthcheck says no
        bool log_checks = true;
        int check_due_calls = 0;
        bool released = false;
    };
    Side side;
    std::vector<std::string> calls;

    static long id(void *r) { return static_cast<Value *>(r)->v; }
    static bool in(const std::vector<long> &v, long x) { return std::find(v.begin(), v.end(), x) != v.end(); }

    tasync_pool_callbacks_t callbacks(bool with_checks = true) {
        tasync_pool_callbacks_t c{};
        c.size = sizeof(c);
        c.data = &side;
        side.t = this;
        c.create = [](void *d, tasync_pool_t *, void **out, void **err) -> int {
            auto *s = static_cast<Side *>(d);
            if (s->create_delay_ms > 0) {
                int rc = s->t->delay(s->create_delay_ms);
                if (rc != 0) return rc;
            }
            if (!s->fail_create.empty()) {
                *err = s->t->exception(s->fail_create);
                return -EIO;
            }
            *out = s->t->host.value(s->next++);
            s->t->calls.push_back("create " + std::to_string(id(*out)) + " in " + s->t->who());
            return 0;
        };
        c.destroy = [](void *d, tasync_pool_t *, void *r) {
            static_cast<Side *>(d)->t->calls.push_back("destroy " + std::to_string(id(r)));
        };
        if (with_checks) {
            c.healthcheck = [](void *d, tasync_pool_t *, void *r) -> int {
                auto *s = static_cast<Side *>(d);
                if (s->log_checks) s->t->calls.push_back("check " + std::to_string(id(r)));
                return in(s->unhealthy, id(r)) ? 0 : 1;
            };
            c.before_acquire = [](void *d, tasync_pool_t *, void *r) -> int {
                auto *s = static_cast<Side *>(d);
                return in(s->refuse_acquire, id(r)) ? 0 : 1;
            };
            c.before_release = [](void *d, tasync_pool_t *, void *r) -> int {
                auto *s = static_cast<Side *>(d);
                s->t->calls.push_back("before_release " + std::to_string(id(r)) + " in " + s->t->who());
                return in(s->refuse_release, id(r)) ? 0 : 1;
            };
        }
        c.release_data = [](void *d) { static_cast<Side *>(d)->released = true; };
        return c;
    }

    tasync_pool_t *pool(uint32_t min, uint32_t max, uint64_t interval_ms = 0, bool with_checks = true) {
        tasync_pool_options_t o{};
        o.size = sizeof(o);
        o.min = min;
        o.max = max;
        o.healthcheck_interval_ns = interval_ms * kMs;
        tasync_pool_callbacks_t c = callbacks(with_checks);
        tasync_pool_t *p = nullptr;
        EXPECT_EQ(tasync_pool_create(rt, &o, &c, &p), 0);
        return p;
    }

    // "main" or "c<id>".
    std::string who() {
        tasync_coroutine_t *co = tasync_coroutine_current(rt);
        return co == nullptr ? "none" : (tasync_coroutine_id(co) == 0 ? std::string("main") : "c" + std::to_string(tasync_coroutine_id(co)));
    }

    // Acquires: the resource's number, or -1000 (code in last_rc).
    long acquire(tasync_pool_t *p, uint64_t timeout_ms = 0, tasync_awaitable_t *cancellation = nullptr) {
        void *r = nullptr, *e = nullptr;
        last_rc = tasync_pool_acquire(rt, p, cancellation, timeout_ms * kMs, &r, &e);
        last_kind = kind_of(e);
        last_error = e != nullptr ? message_of(e) : "";
        long n = last_rc == 0 ? id(r) : -1000;
        release_value(r);  // the pool keeps its own reference while lent
        release_error(e);
        return n;
    }

    long try_acquire(tasync_pool_t *p) {
        void *r = nullptr, *e = nullptr;
        last_rc = tasync_pool_try_acquire(rt, p, &r, &e);
        long n = last_rc == 0 ? id(r) : -1000;
        release_value(r);
        release_error(e);
        return n;
    }

    // The pointer the pool lent as number n.
    void *lent(tasync_pool_t *p, long n) {
        void *rs[64];
        size_t k = tasync_pool_leases(p, rs, nullptr, 64);
        for (size_t i = 0; i < k && i < 64; ++i) {
            if (id(rs[i]) == n) return rs[i];
        }
        return nullptr;
    }

    int give_back(tasync_pool_t *p, long n, void *error = nullptr) {
        void *r = lent(p, n);
        return tasync_pool_give_back(p, r, error);
    }

    tasync_pool_info_t info(tasync_pool_t *p) {
        tasync_pool_info_t i{};
        i.size = sizeof(i);
        EXPECT_EQ(tasync_pool_info(p, &i), 0);
        return i;
    }

    // A coroutine that acquires, says what it got, keeps it ms, gives it back.
    void user(tasync_pool_t *p, const std::string &tag, int ms = 0) {
        go([this, p, tag, ms](tasync_coroutine_t *) {
            long n = acquire(p);
            say(tag + ":" + (last_rc == 0 ? std::to_string(n) : tasync_err_name(last_rc)));
            if (last_rc != 0) return;
            if (ms > 0) delay(ms);
            EXPECT_EQ(give_back(p, n), 0);
        });
    }

    void yield_n(int n) {
        for (int i = 0; i < n; ++i) EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    }

    int last_rc = 0;
    int last_kind = 0;
    std::string last_error;
    using V = std::vector<std::string>;
};

TEST_F(Pool, T3_AcquireCreatesUpToMaxInTheAcquiringCoroutineThenWaits) {
    tasync_pool_t *p = pool(0, 2);
    EXPECT_EQ(acquire(p), 1);
    EXPECT_EQ(acquire(p), 2);
    EXPECT_EQ(calls, (V{"create 1 in main", "create 2 in main"}));
    EXPECT_EQ(try_acquire(p), -1000);
    EXPECT_EQ(last_rc, -EAGAIN) << "none idle; try_acquire never creates";
    user(p, "A");
    yield_n(2);
    tasync_pool_info_t i = info(p);
    EXPECT_EQ(i.total, 2u);
    EXPECT_EQ(i.active, 2u);
    EXPECT_EQ(i.idle, 0u);
    EXPECT_EQ(i.waiting, 1u) << "at max: A waits";
    EXPECT_EQ(give_back(p, 1), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:1"}));
    i = info(p);
    EXPECT_EQ(i.total, 2u);
    EXPECT_EQ(i.idle, 1u);
    EXPECT_EQ(i.active, 1u);
    tasync_pool_release(p);  // resource 2 is still lent: the pool stays until it comes back
    EXPECT_FALSE(side.released);
    EXPECT_EQ(give_back(p, 2), 0);
    EXPECT_TRUE(side.released);
    EXPECT_EQ(calls.back(), "destroy 2");
}

TEST_F(Pool, T3_WaitersAreServedInArrivalOrder) {
    tasync_pool_t *p = pool(0, 1);
    EXPECT_EQ(acquire(p), 1);
    user(p, "A");
    user(p, "B");
    user(p, "C");
    yield_n(2);
    EXPECT_EQ(info(p).waiting, 3u);
    EXPECT_EQ(give_back(p, 1), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:1", "B:1", "C:1"}));
    tasync_pool_release(p);
}

// A resource that comes back while coroutines wait is the first waiter's
// before it runs: the coroutine that gave it back cannot take it again.
TEST_F(Pool, T3_AResourceThatComesBackIsReservedForTheWaiterItWakes) {
    tasync_pool_t *p = pool(0, 1);
    EXPECT_EQ(acquire(p), 1);
    user(p, "A");
    yield_n(2);
    EXPECT_EQ(give_back(p, 1), 0);
    EXPECT_EQ(try_acquire(p), -1000) << "handed to A already";
    EXPECT_EQ(last_rc, -EAGAIN);
    EXPECT_EQ(info(p).idle, 0u);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:1"}));
    tasync_pool_release(p);
}

TEST_F(Pool, T3_ACoroutineThatAcquiresAndReleasesInALoopDoesNotStarveOthers) {
    tasync_pool_t *p = pool(0, 1, 0, false);
    std::vector<std::string> order;
    go([&](tasync_coroutine_t *) {
        for (int i = 0; i < 5; ++i) {
            long n = acquire(p);
            order.push_back("L");
            tasync_yield(rt, nullptr);
            give_back(p, n);
        }
    });
    for (const char *tag : {"A", "B", "C"}) {
        go([&, tag](tasync_coroutine_t *) {
            long n = acquire(p);
            order.push_back(tag);
            give_back(p, n);
        });
    }
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(order, (V{"L", "A", "B", "C", "L", "L", "L", "L"}))
        << "each give-back goes to the first waiter in line: the loop queues behind the others";
    tasync_pool_release(p);
}

TEST_F(Pool, T3_APlaceFreedByADestroyedResourceIsReservedForTheFirstWaiter) {
    tasync_pool_t *p = pool(0, 1);
    side.refuse_release = {1};
    EXPECT_EQ(acquire(p), 1);
    user(p, "A");
    yield_n(2);
    EXPECT_EQ(give_back(p, 1), 0);  // refused: destroyed
    EXPECT_EQ(try_acquire(p), -1000);
    EXPECT_EQ(info(p).total, 1u) << "the place is counted for A, who creates in it";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:2"}));
    EXPECT_EQ(calls, (V{"create 1 in main", "before_release 1 in main", "destroy 1", "create 2 in c1",
                        "before_release 2 in c1"}));
    tasync_pool_release(p);
}

TEST_F(Pool, T3_ACancelledOrTimedOutAcquireGetsNothingAndLeavesTheLine) {
    tasync_pool_t *p = pool(0, 1);
    EXPECT_EQ(acquire(p), 1);
    EXPECT_EQ(acquire(p, 5), -1000);
    EXPECT_EQ(last_rc, -ETIMEDOUT);
    EXPECT_EQ(last_kind, TASYNC_ERROR_TIMEOUT);
    tasync_coroutine_t *a = spawn([&](tasync_coroutine_t *) {
        acquire(p);
        say(std::string("A:") + tasync_err_name(last_rc));
    });
    user(p, "B");
    yield_n(2);
    EXPECT_EQ(tasync_coroutine_cancel(a, nullptr), 0);
    EXPECT_EQ(info(p).waiting, 1u);
    EXPECT_EQ(give_back(p, 1), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:ECANCELED", "B:1"}));
    tasync_coroutine_release(a);
    tasync_pool_release(p);
}

TEST_F(Pool, T3_AResourceHandedOverBeforeACancellationIsKept) {
    tasync_pool_t *p = pool(0, 1);
    EXPECT_EQ(acquire(p), 1);
    tasync_coroutine_t *a = spawn([&](tasync_coroutine_t *) {
        long n = acquire(p);
        say("A:" + std::to_string(n));
        say(std::string("then ") + tasync_err_name(tasync_yield(rt, nullptr)));
        give_back(p, n);
    });
    yield_n(2);
    EXPECT_EQ(give_back(p, 1), 0);
    EXPECT_EQ(tasync_coroutine_cancel(a, nullptr), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:1", "then ECANCELED"}));
    tasync_coroutine_release(a);
    tasync_pool_release(p);
}

TEST_F(Pool, T3_BeforeAcquireRefusalsAreDestroyedAndTheNextIsTaken) {
    tasync_pool_t *p = pool(2, 3);
    void *e = nullptr;
    EXPECT_EQ(tasync_pool_fill(rt, p, &e), 0);
    EXPECT_EQ(info(p).idle, 2u);
    side.refuse_acquire = {1, 2};
    EXPECT_EQ(acquire(p), 3) << "1 and 2 refused, destroyed; 3 created in the place";
    EXPECT_EQ(calls, (V{"create 1 in main", "create 2 in main", "destroy 1", "destroy 2", "create 3 in main"}));
    EXPECT_EQ(info(p).total, 1u);
    EXPECT_EQ(run(), 0);
    tasync_pool_release(p);
    EXPECT_EQ(give_back(p, 3), 0);
}

TEST_F(Pool, T3_ACreateThatSuspendsAndACreateThatFails) {
    tasync_pool_t *p = pool(0, 2);
    side.create_delay_ms = 2;
    user(p, "A");
    user(p, "B");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:1", "B:2"})) << "both created at once, each in its own coroutine";
    side.fail_create = "no connection";
    side.create_delay_ms = 0;
    tasync_pool_release(p);
    p = pool(0, 1);
    EXPECT_EQ(acquire(p), -1000);
    EXPECT_EQ(last_rc, -EIO);
    EXPECT_EQ(last_error, "no connection");
    EXPECT_EQ(info(p).total, 0u) << "the failed creation gave its place back";
    tasync_pool_release(p);
}

TEST_F(Pool, T3_ClosingFailsWaitersDestroysIdleResourcesAndLentOnesWhenTheyComeBack) {
    tasync_pool_t *p = pool(0, 2);
    EXPECT_EQ(acquire(p), 1);
    EXPECT_EQ(acquire(p), 2);
    EXPECT_EQ(give_back(p, 2), 0);
    user(p, "A", 20);
    user(p, "B");
    yield_n(2);
    EXPECT_EQ(info(p).waiting, 1u) << "A took 2, B waits";
    EXPECT_EQ(tasync_pool_close(p), 0);
    EXPECT_EQ(tasync_pool_close(p), TASYNC_EPOOL_CLOSED);
    EXPECT_EQ(acquire(p), -1000);
    EXPECT_EQ(last_rc, TASYNC_EPOOL_CLOSED);
    EXPECT_EQ(last_kind, TASYNC_ERROR_POOL);
    EXPECT_EQ(give_back(p, 1), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:2", "B:TASYNC_EPOOL_CLOSED"}));
    EXPECT_EQ(std::count(calls.begin(), calls.end(), "destroy 1"), 1);
    EXPECT_EQ(std::count(calls.begin(), calls.end(), "destroy 2"), 1);
    EXPECT_EQ(info(p).total, 0u);
    tasync_pool_release(p);
}

// A coroutine that ends holding a resource gives it back by ending: the
// next one to take it runs the before_release check first.
TEST_F(Pool, T3_AResourceWhoseCoroutineEndedComesBack) {
    tasync_pool_t *p = pool(0, 1);
    go([&](tasync_coroutine_t *) { say("A:" + std::to_string(acquire(p))); });
    user(p, "B");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:1", "B:1"}));
    EXPECT_EQ(calls, (V{"create 1 in c1", "before_release 1 in c2", "before_release 1 in c2"}))
        << "A's pending check ran in B, before B had it; then B gave it back";
    EXPECT_EQ(info(p).idle, 1u);
    tasync_pool_release(p);
}

TEST_F(Pool, T3_ATransferredResourceFollowsItsNewOwner) {
    tasync_pool_t *p = pool(0, 1);
    tasync_coroutine_t *keeper = spawn([&](tasync_coroutine_t *) { delay(5); });
    go([&](tasync_coroutine_t *) {
        long n = acquire(p);
        EXPECT_EQ(tasync_pool_transfer(p, lent(p, n), keeper), 0);
    });
    yield_n(2);
    tasync_coroutine_t *owner = nullptr;
    ASSERT_EQ(tasync_pool_leases(p, nullptr, &owner, 1), 1u);
    EXPECT_EQ(owner, keeper) << "the first coroutine ended; the resource stayed lent to the keeper";
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_pool_leases(p, nullptr, nullptr, 0), 0u) << "back when the keeper ended";
    EXPECT_EQ(tasync_pool_give_back(p, &owner, nullptr), -ENOENT);
    tasync_coroutine_release(keeper);
    tasync_pool_release(p);
}

TEST_F(Pool, T3_ACheckPassDestroysUnhealthyResourcesAndRefillsToMin) {
    tasync_pool_t *p = pool(2, 4);
    void *e = nullptr;
    EXPECT_EQ(tasync_pool_fill(rt, p, &e), 0);
    side.unhealthy = {1};
    EXPECT_EQ(tasync_pool_check(rt, p, &e), 0);
    EXPECT_EQ(calls, (V{"create 1 in main", "create 2 in main", "check 1", "destroy 1", "check 2",
                        "create 3 in main"}));
    EXPECT_EQ(info(p).idle, 2u);
    EXPECT_EQ(run(), 0);
    tasync_pool_release(p);
}

// The periodic check runs while the program runs and never keeps it alive
// by itself; the host may start each pass itself (check_due).
TEST_F(Pool, T3_ThePeriodicCheckNeverKeepsTheRuntimeAlive) {
    tasync_pool_t *p = pool(1, 2, 2);
    void *e = nullptr;
    EXPECT_EQ(tasync_pool_fill(rt, p, &e), 0);
    EXPECT_EQ(delay(15), 0);
    const long checks = std::count(calls.begin(), calls.end(), "check 1");
    EXPECT_GE(checks, 2) << "a pass every 2 ms while the main flow sleeps";
    EXPECT_EQ(run(), 0) << "ends although the pool's timer is armed";
    tasync_pool_release(p);
}

TEST_F(Pool, T3_AHostMayRunTheCheckPassesInCoroutinesOfItsOwn) {
    tasync_pool_options_t o{};
    o.size = sizeof(o);
    o.max = 1;
    o.healthcheck_interval_ns = 2 * kMs;
    tasync_pool_callbacks_t c = callbacks();
    c.check_due = [](void *d, tasync_pool_t *) { ++static_cast<Side *>(d)->check_due_calls; };
    tasync_pool_t *p = nullptr;
    ASSERT_EQ(tasync_pool_create(rt, &o, &c, &p), 0);
    EXPECT_EQ(delay(10), 0);
    EXPECT_GE(side.check_due_calls, 2);
    EXPECT_EQ(std::count(calls.begin(), calls.end(), "check 1"), 0) << "the core ran no pass of its own";
    EXPECT_EQ(run(), 0);
    tasync_pool_release(p);
}

TEST_F(Pool, T3_AnInactiveBreakerRefusesAtOnceAndItsStrategyDecidesTheRest) {
    tasync_pool_t *p = pool(0, 1);
    struct Strategy {
        std::vector<std::string> *log;
        bool recover = false;
    } st{&calls};
    tasync_pool_breaker_t b{};
    b.size = sizeof(b);
    b.data = &st;
    b.report_success = [](void *d, tasync_pool_t *) { static_cast<Strategy *>(d)->log->push_back("success"); };
    b.report_failure = [](void *d, tasync_pool_t *pp, void *err) {
        static_cast<Strategy *>(d)->log->push_back("failure: " + message_of(err));
        tasync_pool_set_state(pp, TASYNC_POOL_INACTIVE);
    };
    b.should_recover = [](void *d, tasync_pool_t *) -> int { return static_cast<Strategy *>(d)->recover ? 1 : 0; };
    ASSERT_EQ(tasync_pool_set_breaker(p, &b), 0);
    EXPECT_EQ(acquire(p), 1);
    user(p, "A");
    yield_n(2);
    Error *why = exception("query failed");
    EXPECT_EQ(give_back(p, 1, why), 0);
    host.release(why);
    EXPECT_EQ(tasync_pool_state(p), TASYNC_POOL_INACTIVE) << "the strategy deactivated the pool";
    EXPECT_EQ(acquire(p), -1000);
    EXPECT_EQ(last_rc, TASYNC_ESERVICE_UNAVAILABLE);
    EXPECT_EQ(last_kind, TASYNC_ERROR_SERVICE_UNAVAILABLE);
    st.recover = true;
    EXPECT_EQ(acquire(p), 2) << "should_recover: RECOVERING lends";
    EXPECT_EQ(tasync_pool_state(p), TASYNC_POOL_RECOVERING);
    EXPECT_EQ(give_back(p, 2), 0);
    EXPECT_EQ(tasync_pool_set_state(p, TASYNC_POOL_ACTIVE), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (V{"A:TASYNC_ESERVICE_UNAVAILABLE"})) << "deactivating failed the waiting coroutine";
    EXPECT_EQ(calls, (V{"create 1 in main", "failure: query failed", "destroy 1", "create 2 in main",
                        "before_release 2 in main", "success"}));
    tasync_pool_release(p);
}

TEST_F(Pool, T3_WaitInfoAndTheDeadlockReportNameThePool) {
    host.location_line = 60;
    tasync_pool_t *p = pool(0, 1);
    EXPECT_EQ(acquire(p), 1);
    tasync_coroutine_t *a = spawn([&](tasync_coroutine_t *) { acquire(p); });
    yield_n(2);
    tasync_wait_info_t wi{};
    wi.size = sizeof(wi);
    ASSERT_EQ(tasync_coroutine_wait_info(a, &wi), 0);
    EXPECT_EQ(wi.kind, static_cast<uint32_t>(TASYNC_WAIT_POOL));
    EXPECT_EQ(wi.pool, p);
    EXPECT_EQ(run(), TASYNC_EDEADLOCK);
    EXPECT_TRUE(warned("acquiring from pool 1 (1 of 1 resources) created at test.php:61"));
    release_error(tasync_runtime_take_error(rt));
    tasync_coroutine_release(a);
    tasync_pool_release(p);
    EXPECT_EQ(give_back(p, 1), 0);
}

TEST_F(Pool, T3_TheRuntimeGoesWithLentIdleAndAwaitedResources) {
    tasync_pool_t *p = pool(0, 2);
    side.create_delay_ms = 50;
    user(p, "A");
    yield_n(1);  // A is suspended inside create
    side.create_delay_ms = 0;
    EXPECT_EQ(acquire(p), 1);
    user(p, "B");  // waits
    yield_n(2);
    EXPECT_EQ(info(p).waiting, 1u);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_TRUE(std::find(calls.begin(), calls.end(), "destroy 1") == calls.end()) << "no host code at teardown";
    tasync_pool_release(p);
    EXPECT_TRUE(side.released);
}
