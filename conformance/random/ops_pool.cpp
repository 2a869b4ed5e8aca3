// Pools (T3, pool.h): acquiring (waiting, with and without a cancellation
// awaitable or a timeout, or trying), giving back (kept, refused, with an
// error), closing and releasing, with callbacks that create (sometimes
// after a yield, sometimes failing) and refuse at random. The callbacks tell
// the model exactly which resources exist; it checks that no more than max
// exist, that a resource is never lent twice, that what the pool lends
// exists, that a resource whose coroutine ended comes back, and the
// reservation rule: while coroutines wait, nothing is idle and every place
// is taken.
#include <tasync/pool.h>

#include <algorithm>

#include "ops.hpp"

namespace tasync_random {

namespace {

std::string pname(const PoolRec *p) { return "pl" + std::to_string(p->plid); }

PoolRec *pick_pool(Episode &ep, Rng &rng) {
    if (ep.live_pools.empty()) return nullptr;
    return ep.live_pools[rng.below(static_cast<std::uint32_t>(ep.live_pools.size()))];
}

// Whether the coroutine a resource is lent to can no longer hold it: its
// entry returned, so the core may have taken the lease back already.
bool holder_gone(const CoRec *h) {
    return h != nullptr && h->kind != CoKind::Main &&
           (h->state == CoState::Ending || h->state == CoState::Done || h->finishing);
}

int cb_create(void *d, tasync_pool_t *, void **out, void **err) {
    auto *p = static_cast<PoolRec *>(d);
    Episode &ep = this_episode();
    CoRec *cur = ep.current();
    ++p->creating;
    if (p->rng.chance(static_cast<unsigned>(p->create_yield))) {
        // Creating suspends (a connect): other coroutines use the pool meanwhile.
        void *e = nullptr;
        int rc = tasync_yield(ep.rt, &e);
        if (rc != 0) {
            --p->creating;
            *err = e;  // the caller's cancellation
            return rc;
        }
    }
    --p->creating;
    if (p->rng.chance(static_cast<unsigned>(p->create_fail))) {
        *err = ep.host.error(TASYNC_ERROR_ASYNC, "create failed in " + pname(p));
        if (cur != nullptr) cur->create_failed = p;
        return -EIO;
    }
    const long n = ++p->created;
    Value *v = ep.host.value(n, "resource " + std::to_string(n) + " of " + pname(p));
    p->alive.insert(v);
    RANDOM_CHECK(ep, p->alive.size() <= p->max, "T3: " << pname(p) << " creates a resource beyond its max " << p->max);
    *out = v;
    return 0;
}

void cb_destroy(void *d, tasync_pool_t *, void *r) {
    auto *p = static_cast<PoolRec *>(d);
    Episode &ep = this_episode();
    const auto *v = static_cast<const Value *>(r);
    RANDOM_CHECK(ep, p->alive.count(v) == 1, "T3: " << pname(p) << " destroys a resource it does not have");
    auto it = p->lent.find(v);
    if (it != p->lent.end()) {
        RANDOM_CHECK(ep, holder_gone(it->second),
                     "T3: " << pname(p) << " destroys a resource lent to " << ep.name(it->second));
        p->lent.erase(it);
    }
    p->alive.erase(v);
}

int cb_before_acquire(void *d, tasync_pool_t *, void *r) {
    auto *p = static_cast<PoolRec *>(d);
    RANDOM_CHECK(this_episode(), p->alive.count(static_cast<const Value *>(r)) == 1, "T3: before_acquire of a resource that does not exist");
    return p->rng.chance(static_cast<unsigned>(p->refuse_acquire)) ? 0 : 1;
}

int cb_before_release(void *d, tasync_pool_t *, void *r) {
    auto *p = static_cast<PoolRec *>(d);
    RANDOM_CHECK(this_episode(), p->alive.count(static_cast<const Value *>(r)) == 1, "T3: before_release of a resource that does not exist");
    return p->rng.chance(static_cast<unsigned>(p->refuse_release)) ? 0 : 1;
}

// The pool lent r to self.
void lent(Episode &ep, PoolRec *p, CoRec *self, void *r, const char *how) {
    RANDOM_CHECK(ep, ep.host.is_value(r), "T3: " << how << " from " << pname(p) << " returned something else than a value");
    if (ep.failed) return;
    const auto *v = static_cast<const Value *>(r);
    RANDOM_CHECK(ep, p->alive.count(v) == 1, "T3: " << how << " from " << pname(p) << " lent a resource that does not exist");
    auto it = p->lent.find(v);
    if (it != p->lent.end())
        RANDOM_CHECK(ep, holder_gone(it->second),
                     "T3: " << how << " from " << pname(p) << " lent a resource " << ep.name(it->second) << " holds");
    p->lent[v] = self;
}

tasync_pool_info_t info_of(PoolRec *p) {
    tasync_pool_info_t i{};
    i.size = sizeof(i);
    tasync_pool_info(p->p, &i);
    return i;
}

}  // namespace

void Episode::pool_owner_settled(CoRec *c) {
    for (PoolRec &p : pools) {
        for (auto it = p.lent.begin(); it != p.lent.end();) {
            if (it->second == c) it = p.lent.erase(it);  // it came back (T3)
            else ++it;
        }
    }
}

void Episode::check_pools() {
    for (PoolRec *p : live_pools) {
        if (failed) return;
        const tasync_pool_info_t i = info_of(p);
        const std::string n = pname(p);
        const long alive = static_cast<long>(p->alive.size());
        RANDOM_CHECK(*this, i.total <= p->max, "T3: " << n << " counts " << i.total << " resources, its max is " << p->max);
        RANDOM_CHECK(*this, static_cast<long>(i.total) >= alive + p->creating &&
                                static_cast<long>(i.total) <= alive + p->creating + p->acquirers,
                     "T3: " << n << " counts " << i.total << " resources; " << alive << " exist, " << p->creating
                            << " are being created, " << p->acquirers << " coroutines acquire");
        RANDOM_CHECK(*this, static_cast<long>(i.idle) <= alive, "T3: " << n << " has " << i.idle << " idle of " << alive);
        RANDOM_CHECK(*this, i.waiting == 0 || p->closed || i.state == TASYNC_POOL_INACTIVE || (i.idle == 0 && i.total == p->max),
                     "T3: " << i.waiting << " coroutines wait on " << n << " while " << i.idle << " resources are idle and "
                            << i.total << " of " << p->max << " exist (a waiter was passed over)");
        RANDOM_CHECK(*this, i.waiting <= static_cast<std::uint64_t>(p->acquirers),
                     "T3: " << n << " says " << i.waiting << " wait, " << p->acquirers << " coroutines acquire");
        if (p->closed) RANDOM_CHECK(*this, i.closed && i.idle == 0 && i.waiting == 0, "T3: the closed " << n << " keeps idle resources or waiters");
        // The leases, against the model's.
        void *rs[16];
        tasync_coroutine_t *owners[16];
        const std::size_t k = tasync_pool_leases(p->p, rs, owners, 16);
        RANDOM_CHECK(*this, k <= p->max, "T3: " << n << " lends " << k << " resources");
        for (std::size_t j = 0; j < k && j < 16 && !failed; ++j) {
            auto it = p->lent.find(static_cast<const Value *>(rs[j]));
            RANDOM_CHECK(*this, it != p->lent.end(), "T3: " << n << " lends a resource the model does not know lent");
            if (it == p->lent.end()) break;
            CoRec *h = it->second;
            RANDOM_CHECK(*this, owners[j] == (h != nullptr && h->kind != CoKind::Main ? h->core : nullptr),
                         "T3: " << n << " lends a resource to another coroutine than " << name(h));
        }
        for (auto it = p->lent.begin(); it != p->lent.end() && !failed;) {
            bool listed = false;
            for (std::size_t j = 0; j < k && j < 16; ++j) listed = listed || rs[j] == it->first;
            if (!listed) {
                RANDOM_CHECK(*this, holder_gone(it->second), "T3: " << n << " no longer lends what " << name(it->second) << " holds");
                it = p->lent.erase(it);
            } else {
                ++it;
            }
        }
    }
}

std::string op_pool_create(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_pools.size() >= Episode::kMaxPools) return "skip";
    ep.pools.emplace_back();
    PoolRec *p = &ep.pools.back();
    p->plid = ep.next_id++;
    p->max = 1 + rng.below(3);
    p->rng = Rng(rng.fork());
    p->create_fail = rng.chance(30) ? 20 : 0;
    p->create_yield = rng.chance(50) ? 30 : 0;
    p->refuse_acquire = rng.chance(30) ? 20 : 0;
    p->refuse_release = rng.chance(30) ? 20 : 0;
    tasync_pool_options_t o{};
    o.size = sizeof(o);
    o.max = p->max;
    tasync_pool_callbacks_t c{};
    c.size = sizeof(c);
    c.data = p;
    c.create = &cb_create;
    c.destroy = &cb_destroy;
    c.before_acquire = &cb_before_acquire;
    c.before_release = &cb_before_release;
    int rc = tasync_pool_create(ep.rt, &o, &c, &p->p);
    RANDOM_CHECK(ep, rc == 0 && p->p != nullptr, "T3: tasync_pool_create returned " << rc);
    if (rc != 0) {
        p->held = false;
        return rc_text(rc);
    }
    ep.live_pools.push_back(p);
    return pname(p) + " max " + std::to_string(p->max);
}

std::string op_pool_acquire(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    PoolRec *p = pick_pool(ep, rng);
    if (p == nullptr) return "skip";
    const bool was_closed = p->closed;
    void *r = nullptr;
    void *err = nullptr;
    int rc;
    if (rng.chance(25)) {
        // Trying: its checks may refuse; never waits, never creates.
        const long alive_before = static_cast<long>(p->alive.size());
        rc = tasync_pool_try_acquire(ep.rt, p->p, &r, &err);
        if (was_closed) RANDOM_CHECK(ep, rc == TASYNC_EPOOL_CLOSED, "T3: try_acquire on the closed " << pname(p) << " returned " << rc);
        else RANDOM_CHECK(ep, rc == 0 || rc == -EAGAIN, "T3: try_acquire on " << pname(p) << " returned " << rc);
        RANDOM_CHECK(ep, static_cast<long>(p->alive.size()) <= alive_before, "T3: try_acquire created a resource");
        if (rc == 0) lent(ep, p, self, r, "try_acquire");
        release_outs(ep, r, err);
        return pname(p) + " try " + rc_text(rc);
    }
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const std::uint64_t timeout = rng.chance(15) ? 1 + ep.duration(rng) : 0;
    self->wait = WaitRec{};
    self->wait.keeps_result = true;
    self->wait.cancellation = canc;
    self->create_failed = nullptr;
    ep.begin_wait(self, WaitKind::PoolAcquire);
    ++p->acquirers;
    rc = tasync_pool_acquire(ep.rt, p->p, canc != nullptr ? canc->aw : nullptr, timeout, &r, &err);
    --p->acquirers;
    ep.end_wait(self);
    if (!common_outcome(ep, self, rc, err, canc, "pool acquire")) {
        if (was_closed) RANDOM_CHECK(ep, rc == TASYNC_EPOOL_CLOSED, "T3: acquiring from the closed " << pname(p) << " returned " << rc);
        if (rc == 0) {
            lent(ep, p, self, r, "acquire");
        } else if (rc == TASYNC_EPOOL_CLOSED) {
            RANDOM_CHECK(ep, p->closed && ep.host.is_error(err) && static_cast<Error *>(err)->kind == TASYNC_ERROR_POOL,
                         "T3: acquiring from the open " << pname(p) << " failed as closed, or without a pool error");
        } else if (rc == -EIO) {
            RANDOM_CHECK(ep, self->create_failed == p, "T3: acquire returned -EIO, but no create failed in " << ep.name(self));
        } else {
            RANDOM_CHECK(ep, rc == -ETIMEDOUT && timeout != 0 && ep.host.is_error(err) &&
                                 static_cast<Error *>(err)->kind == TASYNC_ERROR_TIMEOUT,
                         "T3: acquiring from " << pname(p) << " returned " << rc);
        }
    }
    self->create_failed = nullptr;
    release_outs(ep, r, err);
    return pname(p) + " " + rc_text(rc);
}

std::string op_pool_give_back(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    std::vector<std::pair<PoolRec *, const Value *>> mine;
    for (PoolRec &p : ep.pools) {
        for (auto &l : p.lent) {
            if (l.second == self) mine.emplace_back(&p, l.first);
        }
    }
    if (mine.empty()) {
        PoolRec *p = pick_pool(ep, rng);
        if (p == nullptr || !rng.chance(15)) return "skip";
        Value *stranger = ep.host.value(0, "never lent");
        int rc = tasync_pool_give_back(p->p, stranger, nullptr);
        RANDOM_CHECK(ep, rc == -ENOENT, "T3: giving " << pname(p) << " back a resource it never lent returned " << rc);
        ep.host.release(stranger);
        return pname(p) + " stranger " + rc_text(rc);
    }
    auto pick = mine[rng.below(static_cast<std::uint32_t>(mine.size()))];
    PoolRec *p = pick.first;
    p->lent.erase(pick.second);
    Error *why = rng.chance(20) ? ep.host.error(TASYNC_ERROR_ASYNC, "resource failed") : nullptr;
    // The pool outlives the lease even when the tester released it.
    int rc = tasync_pool_give_back(p->p, const_cast<Value *>(pick.second), why);
    RANDOM_CHECK(ep, rc == 0, "T3: giving back to " << pname(p) << " returned " << rc);
    if (why != nullptr) {
        RANDOM_CHECK(ep, p->alive.count(pick.second) == 0, "T3: a resource given back with an error was kept");
        ep.host.release(why);
    }
    if (p->closed) RANDOM_CHECK(ep, p->alive.count(pick.second) == 0, "T3: the closed " << pname(p) << " kept a resource");
    return pname(p) + (why != nullptr ? " with an error " : " ") + rc_text(rc);
}

std::string op_pool_close(Episode &ep, CoRec *self) {
    PoolRec *p = pick_pool(ep, self->rng);
    if (p == nullptr) return "skip";
    int rc = tasync_pool_close(p->p);
    RANDOM_CHECK(ep, rc == (p->closed ? TASYNC_EPOOL_CLOSED : 0), "T3: closing " << pname(p) << " returned " << rc);
    p->closed = true;
    return pname(p) + " " + rc_text(rc);
}

std::string op_pool_release(Episode &ep, CoRec *self) {
    PoolRec *p = pick_pool(ep, self->rng);
    if (p == nullptr || p->acquirers > 0) return "skip";
    for (std::size_t i = 0; i < ep.live_pools.size(); ++i) {
        if (ep.live_pools[i] == p) {
            ep.live_pools[i] = ep.live_pools.back();
            ep.live_pools.pop_back();
            break;
        }
    }
    p->held = false;
    const bool lends = !p->lent.empty();
    tasync_pool_release(p->p);
    if (!lends) RANDOM_CHECK(ep, p->alive.empty(), "T3: the released " << pname(p) << " kept its resources");
    return pname(p) + (lends ? " (still lending)" : "");
}

}  // namespace tasync_random
