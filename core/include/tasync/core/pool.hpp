// Resource pools (rule T3, api/include/tasync/pool.h): idle resources, the
// resources lent (leases, each watching the coroutine it is lent to), and
// the line of coroutines waiting to acquire.
//
// Counting: total is every resource that exists or is being created (idle,
// lent, handed to a waiter, checked, created): never more than max. A
// place freed while coroutines wait is given to the first of them at once
// (total stays counted for it), and so is a resource that comes back:
// while a live coroutine waits nothing is idle and total is max.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "cancel.hpp"
#include "runtime.hpp"

namespace tasync::detail {

// An idle resource. unreleased: its coroutine ended without giving it
// back; before_release runs in the coroutine that takes it next.
struct PoolEntry {
    void *resource = nullptr;  // the pool's reference
    bool unreleased = false;
};

// A coroutine waiting in tasync_pool_acquire (on its stack).
struct PoolWait : Wait {
    Link link;                  // in the pool's line
    tasync_pool *pool = nullptr;
    tasync_runtime *rt = nullptr;
    TimerEntry timer;           // its timeout
    CancelLink cancel;
    PoolEntry handed;           // a resource handed over, or
    bool slot = false;          // a place reserved to create one
};
using PoolLine = List<PoolWait, &PoolWait::link>;

// A resource lent.
struct Lease {
    tasync_pool *pool = nullptr;
    void *resource = nullptr;             // the pool's reference
    tasync_coroutine *owner = nullptr;    // watched while set
    Waiter waiter;                        // on owner: it completed
};

}  // namespace tasync::detail

struct tasync_pool {
    tasync_pool(tasync_runtime *r, const tasync_pool_options_t &o, const tasync_pool_callbacks_t &c);

    tasync_runtime *rt;                  // nullptr once the runtime is gone
    std::uint32_t refs = 1;
    // References held by core frames on coroutine stacks across the host's
    // callbacks, which may suspend: runtime teardown drops such stacks
    // without unwinding them and takes these back.
    std::uint32_t stack_refs = 0;
    std::uint64_t id = 0;
    std::uint32_t min = 0;
    std::uint32_t max = 10;
    std::uint64_t interval_ns = 0;
    tasync_location_t created_at{};
    tasync_pool_callbacks_t cb{};
    tasync_pool_breaker_t breaker{};
    bool has_breaker = false;
    int state = TASYNC_POOL_ACTIVE;
    bool closed = false;
    std::size_t total = 0;
    std::uint32_t checking = 0;         // check passes running
    std::deque<tasync::detail::PoolEntry> idle;
    std::vector<std::unique_ptr<tasync::detail::Lease>> leases;  // in the order lent
    tasync::detail::PoolLine line;
    tasync::detail::TimerEntry check_timer;

    // The first live waiter (dead ones at the front dropped).
    tasync::detail::PoolWait *first();
    std::size_t live_waiters() const;
    // A resource is ready to lend: to the first waiter, else idle (a closed
    // pool destroys it).
    void give_back(tasync::detail::PoolEntry e);
    // Gives a resource up (destroy, release); total drops, and with offer
    // the freed place goes to the first waiter.
    void destroy_resource(void *resource, bool offer);
    void offer_slot();
    // Fails every live waiter with code.
    void fail_waiters(int code);
    tasync::detail::Lease *find(void *resource);
    tasync::detail::Lease *lend(void *resource, tasync_coroutine *owner);
    // Ends a lease (its owner no longer watched); the lease's reference on
    // the pool is the caller's to drop.
    void end_lease(tasync::detail::Lease *l);
    void watch(tasync::detail::Lease *l, tasync_coroutine *owner);
    void report_success();
    // error borrowed; NULL: made from what (only when a strategy listens).
    void report_failure(void *error, const char *what);
    bool close();
    std::string describe() const;
};

namespace tasync::detail {
// Drops a reference; the last one closes and frees.
void pool_unref(tasync_pool *p);
}  // namespace tasync::detail
