// Resource pools (rule T3): the pool of pool.hpp and the C ABI of
// api/include/tasync/pool.h.
#include "tasync/core/pool.hpp"

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

// Keeps a pool alive across the host's callbacks, which may suspend (and
// meanwhile release the pool). Counted in stack_refs for runtime teardown.
struct CallHold {
    explicit CallHold(tasync_pool *p) : pool(p) {
        ++pool->refs;
        ++pool->stack_refs;
    }
    ~CallHold() {
        if (pool->stack_refs > 0) --pool->stack_refs;
        pool_unref(pool);
    }
    CallHold(const CallHold &) = delete;
    CallHold &operator=(const CallHold &) = delete;
    tasync_pool *pool;
};

void pool_timeout_fired(TimerEntry *e) {
    auto *w = static_cast<PoolWait *>(e->owner);
    w->rt->wake(w, -ETIMEDOUT);
}

void pool_wait_cleanup(Wait *base) {
    auto *w = static_cast<PoolWait *>(base);
    w->rt->timers.disarm(&w->timer);
    w->cancel.detach();
    if (w->link.linked()) w->pool->line.remove(w);
    // Teardown drops a waiter that was handed a resource and never ran.
    if (w->co != nullptr && w->co->wait == w && w->handed.resource != nullptr) {
        w->rt->release_value(w->handed.resource);
        w->handed.resource = nullptr;
    }
}

// The coroutine a lease was lent to completed without giving it back: the
// resource comes back (rule T3), its before_release left to whoever takes
// it next.
void lease_owner_done(Waiter *w, tasync_awaitable *) {
    auto *l = static_cast<Lease *>(w->data);
    tasync_pool *p = l->pool;
    void *r = l->resource;
    l->owner = nullptr;
    p->end_lease(l);
    p->give_back(PoolEntry{r, true});
    pool_unref(p);  // the lease's
}

void check_entry(tasync_coroutine_t *, void *arg) {
    auto *p = static_cast<tasync_pool *>(arg);
    if (p->rt != nullptr) (void)tasync_pool_check(p->rt, p, nullptr);
}

void check_release(void *arg) { pool_unref(static_cast<tasync_pool *>(arg)); }

void check_timer_fired(TimerEntry *e) {
    auto *p = static_cast<tasync_pool *>(e->owner);
    tasync_runtime *rt = p->rt;
    if (rt == nullptr || p->closed) return;
    rt->timers.arm(&p->check_timer, rt->fresh_now() + p->interval_ns);
    if (p->checking > 0) return;  // the last pass has not ended
    if (p->cb.check_due != nullptr) {
        ++p->refs;
        p->cb.check_due(p->cb.data, p);
        pool_unref(p);
        return;
    }
    tasync_spawn_options_t o{};
    o.size = sizeof(o);
    o.entry = &check_entry;
    o.arg = p;
    o.arg_release = &check_release;
    o.location = p->created_at;
    ++p->refs;
    if (rt->spawn(o, nullptr, nullptr, true) != 0) pool_unref(p);
}

// Runs the host's create. 0 and the pool's reference in *out, or the code
// and an error (made when the host gave none).
int create_resource(tasync_runtime *rt, tasync_pool *p, void **out, void **out_error) {
    void *r = nullptr;
    void *e = nullptr;
    int rc = p->cb.create(p->cb.data, p, &r, &e);
    if (rc == 0 && r == nullptr) rc = -EINVAL;
    if (rc != 0) {
        if (r != nullptr) rt->release_value(r);
        if (e == nullptr)
            e = rt->make_error(TASYNC_ERROR_POOL, rc, std::string("The pool could not create a resource: ") +
                                                          tasync_strerror(rc));
        p->report_failure(e, nullptr);
        if (out_error != nullptr) *out_error = e;
        else rt->release_error(e);
        return rc;
    }
    rt->release_error(e);
    *out = r;
    return 0;
}

// The error object of a code the pool ends a call with.
void *make_pool_error(tasync_runtime *rt, int code) {
    if (code == TASYNC_EPOOL_CLOSED) return rt->make_error(TASYNC_ERROR_POOL, code, "The pool is closed");
    if (code == TASYNC_ESERVICE_UNAVAILABLE)
        return rt->make_error(TASYNC_ERROR_SERVICE_UNAVAILABLE, code,
                              "The service is unavailable: the pool's circuit breaker is inactive");
    return rt->make_error(TASYNC_ERROR_TIMEOUT, -ETIMEDOUT, "Acquiring from the pool timed out");
}

int pool_error(tasync_runtime *rt, int code, void **out_error) {
    if (out_error != nullptr) *out_error = make_pool_error(rt, code);
    return code;
}

// Waits in the pool's line. 0 with w.handed or w.slot set, or the code.
int wait_in_line(tasync_runtime *rt, tasync_pool *p, tasync_awaitable *cancellation, std::uint64_t deadline,
                 PoolEntry *handed, bool *slot, void **out_error) {
    PoolWait w;
    w.kind = WaitKind::Pool;
    w.object = p;
    w.pool = p;
    w.rt = rt;
    w.cleanup = &pool_wait_cleanup;
    w.keeps_result = true;  // what was handed over stays handed over (T3)
    if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
    if (deadline != 0) {
        if (deadline <= rt->fresh_now()) {
            w.cancel.detach();
            return pool_error(rt, -ETIMEDOUT, out_error);
        }
        w.deadline = deadline;
        w.timer.fire = &pool_timeout_fired;
        w.timer.owner = &w;
        rt->timers.arm(&w.timer, deadline);
    }
    p->line.push_back(&w);
    rt->suspend_on(w);
    *handed = w.handed;
    w.handed = PoolEntry{};
    *slot = w.slot;
    if (w.error == nullptr &&
        (w.code == -ETIMEDOUT || w.code == TASYNC_EPOOL_CLOSED || w.code == TASYNC_ESERVICE_UNAVAILABLE))
        w.error = make_pool_error(rt, w.code);
    return finish_wait(rt, w, nullptr, out_error);
}

// Runs the checks a resource taken from the pool goes through before it
// is lent: the pending before_release of an unreleased one, before_acquire.
bool entry_usable(tasync_pool *p, const PoolEntry &e) {
    if (e.unreleased && p->cb.before_release != nullptr && p->cb.before_release(p->cb.data, p, e.resource) == 0)
        return false;
    if (p->cb.before_acquire != nullptr && p->cb.before_acquire(p->cb.data, p, e.resource) == 0) return false;
    return true;
}

// tasync_pool_acquire and _try_acquire (try_only: no wait, no creation).
int acquire(tasync_runtime *rt, tasync_pool *p, tasync_awaitable *cancellation, std::uint64_t timeout_ns,
            bool try_only, void **out_resource, void **out_error) {
    CallHold hold(p);
    const std::uint64_t deadline = timeout_ns != 0 ? rt->fresh_now() + timeout_ns : 0;
    bool have_slot = false;  // total counts a place for the caller
    PoolEntry e{};
    for (;;) {
        if (e.resource != nullptr) {
            const bool usable = entry_usable(p, e);  // may suspend
            void *r = e.resource;
            e = PoolEntry{};
            if (usable && !p->closed) {
                p->lend(r, rt->current);
                rt->retain_value(r);
                *out_resource = r;
                return 0;
            }
            if (p->closed) {
                p->destroy_resource(r, false);
                return pool_error(rt, TASYNC_EPOOL_CLOSED, out_error);
            }
            // Refused: given up, and the caller goes on with another: the
            // next idle one, else one it creates in the place (try_acquire
            // creates nothing: the place goes to the first waiter).
            p->destroy_resource(r, try_only);
            if (try_only || (p->first() == nullptr && !p->idle.empty())) continue;
            ++p->total;
            have_slot = true;
            continue;
        }
        if (p->closed || p->state == TASYNC_POOL_INACTIVE) {
            if (!p->closed && p->has_breaker && p->breaker.should_recover != nullptr &&
                p->breaker.should_recover(p->breaker.data, p) != 0 && p->state == TASYNC_POOL_INACTIVE) {
                p->state = TASYNC_POOL_RECOVERING;
                continue;
            }
            if (p->closed || p->state == TASYNC_POOL_INACTIVE) {
                if (have_slot) {
                    --p->total;
                    p->offer_slot();
                }
                return pool_error(rt, p->closed ? TASYNC_EPOOL_CLOSED : TASYNC_ESERVICE_UNAVAILABLE, out_error);
            }
            continue;
        }
        if (have_slot) {
            void *r = nullptr;
            int rc = create_resource(rt, p, &r, out_error);  // may suspend
            have_slot = false;
            if (rc != 0) {
                --p->total;
                p->offer_slot();
                return rc;
            }
            if (p->closed) {
                p->destroy_resource(r, false);
                return pool_error(rt, TASYNC_EPOOL_CLOSED, out_error);
            }
            p->lend(r, rt->current);
            rt->retain_value(r);
            *out_resource = r;
            return 0;
        }
        if (p->first() == nullptr) {  // nobody waits before the caller
            if (!p->idle.empty()) {
                e = p->idle.front();
                p->idle.pop_front();
                continue;
            }
            if (!try_only && p->total < p->max) {
                ++p->total;
                have_slot = true;
                continue;
            }
        }
        if (try_only) return -EAGAIN;
        int rc = wait_in_line(rt, p, cancellation, deadline, &e, &have_slot, out_error);
        if (rc != 0) {
            // Nothing was handed over to a wait that ended otherwise.
            return rc;
        }
    }
}

}  // namespace

// ===================================================================== pool

tasync_pool::tasync_pool(tasync_runtime *r, const tasync_pool_options_t &o, const tasync_pool_callbacks_t &c)
    : rt(r), min(o.min), max(o.max), interval_ns(o.healthcheck_interval_ns), cb(c) {
    id = r->next_pool_id++;
    created_at = o.location.file != nullptr ? o.location : r->capture_location();
    check_timer.fire = &check_timer_fired;
    check_timer.owner = this;
    check_timer.ref = false;  // never keeps the runtime alive on its own (T3)
}

PoolWait *tasync_pool::first() {
    while (PoolWait *w = line.front()) {
        if (!w->done) return w;
        line.remove(w);  // a dead wait: its coroutine finds it unlinked
    }
    return nullptr;
}

std::size_t tasync_pool::live_waiters() const {
    std::size_t n = 0;
    for (const PoolWait *w = line.front(); w != nullptr; w = line.next(w)) n += w->done ? 0 : 1;
    return n;
}

void tasync_pool::give_back(PoolEntry e) {
    if (closed || rt == nullptr) {
        destroy_resource(e.resource, false);
        return;
    }
    if (PoolWait *w = first()) {
        line.remove(w);
        w->handed = e;
        rt->wake(w, 0);
        return;
    }
    idle.push_back(e);
}

void tasync_pool::destroy_resource(void *resource, bool offer) {
    --total;
    if (rt != nullptr) {
        // No host code while the runtime goes (pool.h): a reference only.
        if (cb.destroy != nullptr && !rt->destroying) cb.destroy(cb.data, this, resource);
        rt->release_value(resource);
    }
    if (offer) offer_slot();
}

void tasync_pool::offer_slot() {
    if (closed || rt == nullptr || state == TASYNC_POOL_INACTIVE || total >= max) return;
    if (PoolWait *w = first()) {
        line.remove(w);
        ++total;
        w->slot = true;
        rt->wake(w, 0);
    }
}

void tasync_pool::fail_waiters(int code) {
    while (PoolWait *w = line.pop_front()) rt->wake(w, code);
}

Lease *tasync_pool::find(void *resource) {
    for (std::unique_ptr<Lease> &l : leases) {
        if (l->resource == resource) return l.get();
    }
    return nullptr;
}

void tasync_pool::watch(Lease *l, tasync_coroutine *owner) {
    l->owner = owner;
    if (owner == nullptr) return;
    l->waiter.notify = &lease_owner_done;
    l->waiter.data = l;
    owner->add_waiter(&l->waiter);
}

Lease *tasync_pool::lend(void *resource, tasync_coroutine *owner) {
    auto l = std::make_unique<Lease>();
    l->pool = this;
    l->resource = resource;
    Lease *raw = l.get();
    leases.push_back(std::move(l));
    ++refs;  // the lease's: the pool outlives what it lent
    // The main coroutine completes only with the runtime: not watched.
    watch(raw, owner != nullptr && !owner->is_main && !owner->completed ? owner : nullptr);
    return raw;
}

void tasync_pool::end_lease(Lease *l) {
    if (l->owner != nullptr && l->waiter.link.linked()) l->owner->remove_waiter(&l->waiter);
    for (std::size_t i = 0; i < leases.size(); ++i) {
        if (leases[i].get() == l) {
            leases.erase(leases.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    }
}

void tasync_pool::report_success() {
    if (has_breaker && breaker.report_success != nullptr) breaker.report_success(breaker.data, this);
}

void tasync_pool::report_failure(void *error, const char *what) {
    if (!has_breaker || breaker.report_failure == nullptr || rt == nullptr) return;
    if (error != nullptr) {
        breaker.report_failure(breaker.data, this, error);
        return;
    }
    void *e = rt->make_error(TASYNC_ERROR_POOL, -EIO, what);
    breaker.report_failure(breaker.data, this, e);
    rt->release_error(e);
}

bool tasync_pool::close() {
    if (closed) return false;
    closed = true;
    if (rt == nullptr) return true;
    rt->timers.disarm(&check_timer);
    fail_waiters(TASYNC_EPOOL_CLOSED);
    while (!idle.empty()) {
        PoolEntry e = idle.front();
        idle.pop_front();
        destroy_resource(e.resource, false);
    }
    return true;
}

std::string tasync_pool::describe() const {
    return "pool " + std::to_string(id) + " (" + std::to_string(total) + " of " + std::to_string(max) +
           " resources) created" + tasync_runtime::at(created_at);
}

namespace tasync::detail {

void pool_unref(tasync_pool *p) {
    if (--p->refs != 0) return;
    tasync_runtime *rt = p->rt;
    if (rt != nullptr) {
        ++p->refs;  // closing runs the host's destroy, which may take a reference
        p->close();
        if (--p->refs != 0) return;
        rt->timers.disarm(&p->check_timer);
        rt->pools.erase(p);
    }
    if (p->has_breaker && p->breaker.release_data != nullptr) p->breaker.release_data(p->breaker.data);
    if (p->cb.release_data != nullptr) p->cb.release_data(p->cb.data);
    delete p;
}

}  // namespace tasync::detail

void tasync_runtime::teardown_pools() {
    std::vector<tasync_pool *> all(pools.begin(), pools.end());
    pools.clear();
    for (tasync_pool *p : all) {
        timers.disarm(&p->check_timer);
        // The waits were dropped with their coroutines; the host's code
        // does not run while the runtime goes: references only.
        while (p->line.pop_front() != nullptr) {
        }
        for (const PoolEntry &e : p->idle) release_value(e.resource);
        p->idle.clear();
        std::uint32_t lease_refs = 0;
        for (std::unique_ptr<Lease> &l : p->leases) {
            if (l->owner != nullptr && l->waiter.link.linked()) l->owner->remove_waiter(&l->waiter);
            release_value(l->resource);
            ++lease_refs;
        }
        p->leases.clear();
        p->total = 0;
        p->closed = true;
        p->rt = nullptr;
        // Frames that held the pool across a callback are gone unwound.
        p->refs -= lease_refs + p->stack_refs;
        p->stack_refs = 0;
        if (p->refs == 0) {
            ++p->refs;
            pool_unref(p);
        }
    }
}

// ===================================================================== ABI

extern "C" {

TASYNC_API int tasync_pool_create(tasync_runtime_t *rt, const tasync_pool_options_t *opts,
                                  const tasync_pool_callbacks_t *callbacks, tasync_pool_t **out) {
    if (out != nullptr) *out = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || out == nullptr || callbacks == nullptr ||
        callbacks->size < offsetof(tasync_pool_callbacks_t, create) + sizeof(void *) || callbacks->create == nullptr)
        return -EINVAL;
    tasync_pool_options_t o{};
    o.max = 10;
    if (opts != nullptr) {
        if (opts->size < offsetof(tasync_pool_options_t, location)) return -EINVAL;
        std::memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
    }
    if (o.max == 0 || o.min > o.max) return -EINVAL;
    tasync_pool_callbacks_t c{};
    std::memcpy(&c, callbacks, callbacks->size < sizeof(c) ? callbacks->size : sizeof(c));
    auto *p = new tasync_pool(rt, o, c);
    rt->pools.insert(p);
    if (p->interval_ns != 0) rt->timers.arm(&p->check_timer, rt->fresh_now() + p->interval_ns);
    *out = p;
    return 0;
}

TASYNC_API void tasync_pool_retain(tasync_pool_t *pool) {
    if (pool != nullptr) ++pool->refs;
}

TASYNC_API void tasync_pool_release(tasync_pool_t *pool) {
    if (pool != nullptr) pool_unref(pool);
}

TASYNC_API int tasync_pool_acquire(tasync_runtime_t *rt, tasync_pool_t *pool, tasync_awaitable_t *cancellation,
                                   uint64_t timeout_ns, void **out_resource, void **out_error) {
    if (out_resource != nullptr) *out_resource = nullptr;
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (pool == nullptr || out_resource == nullptr) return -EINVAL;
    if (pool->rt == nullptr) return TASYNC_EBAD_STATE;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (pool->rt != rt) return TASYNC_EWRONG_THREAD;
    if (cancellation != nullptr && cancellation->rt != rt)
        return cancellation->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    return acquire(rt, pool, cancellation, timeout_ns, false, out_resource, out_error);
}

TASYNC_API int tasync_pool_try_acquire(tasync_runtime_t *rt, tasync_pool_t *pool, void **out_resource,
                                       void **out_error) {
    if (out_resource != nullptr) *out_resource = nullptr;
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (pool == nullptr || out_resource == nullptr || rt == nullptr) return -EINVAL;
    if (pool->rt == nullptr) return TASYNC_EBAD_STATE;
    if (pool->rt != rt) return TASYNC_EWRONG_THREAD;
    return acquire(rt, pool, nullptr, 0, true, out_resource, out_error);
}

TASYNC_API int tasync_pool_give_back(tasync_pool_t *pool, void *resource, void *error) {
    if (pool == nullptr) return -EINVAL;
    Lease *l = pool->find(resource);
    if (l == nullptr) return -ENOENT;
    CallHold hold(pool);
    pool->end_lease(l);  // frees l
    pool_unref(pool);    // the lease's (the hold keeps the pool)
    tasync_runtime *rt = pool->rt;
    if (rt == nullptr) return 0;
    if (pool->closed) {
        pool->destroy_resource(resource, false);
        return 0;
    }
    bool keep = true;
    if (error != nullptr) {
        keep = false;
        pool->report_failure(error, nullptr);
    } else if (pool->cb.before_release != nullptr) {
        keep = pool->cb.before_release(pool->cb.data, pool, resource) != 0;  // may suspend
        if (keep) pool->report_success();
        else pool->report_failure(nullptr, "The resource was refused when it came back to the pool");
    } else {
        pool->report_success();
    }
    if (keep) pool->give_back(PoolEntry{resource, false});
    else pool->destroy_resource(resource, true);
    return 0;
}

TASYNC_API int tasync_pool_transfer(tasync_pool_t *pool, void *resource, tasync_coroutine_t *owner) {
    if (pool == nullptr || (owner != nullptr && owner->rt != pool->rt)) return -EINVAL;
    Lease *l = pool->find(resource);
    if (l == nullptr) return -ENOENT;
    if (l->owner != nullptr && l->waiter.link.linked()) l->owner->remove_waiter(&l->waiter);
    l->owner = nullptr;
    if (owner != nullptr && owner->completed) {
        // Lent to a coroutine that has ended: it comes back at once.
        lease_owner_done(&l->waiter, owner);
        return 0;
    }
    pool->watch(l, owner != nullptr && !owner->is_main ? owner : nullptr);
    return 0;
}

TASYNC_API int tasync_pool_fill(tasync_runtime_t *rt, tasync_pool_t *pool, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (pool == nullptr) return -EINVAL;
    if (pool->rt == nullptr) return TASYNC_EBAD_STATE;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (pool->rt != rt) return TASYNC_EWRONG_THREAD;
    CallHold hold(pool);
    while (!pool->closed && pool->state != TASYNC_POOL_INACTIVE && pool->total < pool->min) {
        ++pool->total;
        void *r = nullptr;
        int rc = create_resource(rt, pool, &r, out_error);  // may suspend
        if (rc != 0) {
            --pool->total;
            pool->offer_slot();
            return rc;
        }
        pool->give_back(PoolEntry{r, false});
    }
    return pool->closed ? pool_error(rt, TASYNC_EPOOL_CLOSED, out_error) : 0;
}

TASYNC_API int tasync_pool_check(tasync_runtime_t *rt, tasync_pool_t *pool, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (pool == nullptr) return -EINVAL;
    if (pool->rt == nullptr) return TASYNC_EBAD_STATE;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (pool->rt != rt) return TASYNC_EWRONG_THREAD;
    CallHold hold(pool);
    if (pool->closed) return pool_error(rt, TASYNC_EPOOL_CLOSED, out_error);
    ++pool->checking;
    for (std::size_t n = pool->idle.size(); n > 0 && !pool->closed && !pool->idle.empty(); --n) {
        PoolEntry e = pool->idle.front();
        pool->idle.pop_front();
        bool keep = !e.unreleased || pool->cb.before_release == nullptr ||
                    pool->cb.before_release(pool->cb.data, pool, e.resource) != 0;  // may suspend
        if (keep && pool->cb.healthcheck != nullptr) {
            keep = pool->cb.healthcheck(pool->cb.data, pool, e.resource) != 0;  // may suspend
            if (!keep) pool->report_failure(nullptr, "The resource failed its health check");
        }
        if (keep) pool->give_back(PoolEntry{e.resource, false});
        else pool->destroy_resource(e.resource, true);
    }
    --pool->checking;
    return tasync_pool_fill(rt, pool, out_error);
}

TASYNC_API int tasync_pool_close(tasync_pool_t *pool) {
    if (pool == nullptr) return -EINVAL;
    if (pool->closed) return TASYNC_EPOOL_CLOSED;
    ++pool->refs;
    pool->close();
    pool_unref(pool);
    return 0;
}

TASYNC_API int tasync_pool_set_state(tasync_pool_t *pool, int state) {
    if (pool == nullptr || state < TASYNC_POOL_ACTIVE || state > TASYNC_POOL_RECOVERING) return -EINVAL;
    const int was = pool->state;
    pool->state = state;
    if (state == TASYNC_POOL_INACTIVE && was != TASYNC_POOL_INACTIVE && pool->rt != nullptr)
        pool->fail_waiters(TASYNC_ESERVICE_UNAVAILABLE);
    return 0;
}

TASYNC_API int tasync_pool_state(const tasync_pool_t *pool) { return pool != nullptr ? pool->state : -EINVAL; }

TASYNC_API int tasync_pool_set_breaker(tasync_pool_t *pool, const tasync_pool_breaker_t *breaker) {
    if (pool == nullptr || (breaker != nullptr && breaker->size < offsetof(tasync_pool_breaker_t, data) + sizeof(void *)))
        return -EINVAL;
    tasync_pool_breaker_t old = pool->breaker;
    const bool had = pool->has_breaker;
    pool->breaker = tasync_pool_breaker_t{};
    pool->has_breaker = breaker != nullptr;
    if (breaker != nullptr)
        std::memcpy(&pool->breaker, breaker, breaker->size < sizeof(pool->breaker) ? breaker->size : sizeof(pool->breaker));
    if (had && old.release_data != nullptr) old.release_data(old.data);
    return 0;
}

TASYNC_API int tasync_pool_info(const tasync_pool_t *pool, tasync_pool_info_t *out) {
    if (pool == nullptr || out == nullptr || out->size < sizeof(uint32_t) * 2) return -EINVAL;
    tasync_pool_info_t info{};
    info.size = out->size < sizeof(info) ? out->size : static_cast<uint32_t>(sizeof(info));
    info.state = static_cast<uint32_t>(pool->state);
    info.closed = pool->closed ? 1 : 0;
    info.min = pool->min;
    info.max = pool->max;
    info.id = pool->id;
    info.idle = pool->idle.size();
    info.total = pool->total;
    info.active = pool->total - pool->idle.size();
    info.waiting = pool->live_waiters();
    info.location = pool->created_at;
    std::memcpy(out, &info, info.size);
    return 0;
}

TASYNC_API size_t tasync_pool_leases(const tasync_pool_t *pool, void **resources, tasync_coroutine_t **owners,
                                     size_t cap) {
    if (pool == nullptr) return 0;
    for (size_t i = 0; i < pool->leases.size() && i < cap; ++i) {
        if (resources != nullptr) resources[i] = pool->leases[i]->resource;
        if (owners != nullptr) owners[i] = pool->leases[i]->owner;
    }
    return pool->leases.size();
}

}  // extern "C"
