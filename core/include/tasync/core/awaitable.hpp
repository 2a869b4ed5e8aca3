// The base of everything a coroutine can await (coroutines, futures,
// timeouts, await-many sets): an outcome, the waiters to wake when it is
// recorded, and a reference count.
#pragma once

#include <cstdint>

#include "list.hpp"
#include "wait.hpp"

struct tasync_runtime;
struct tasync_coroutine;
// ---------------------------------------------------------------- awaitables

struct tasync_awaitable {
    explicit tasync_awaitable(tasync::detail::AwaitableKind k, tasync_runtime *r) : kind(k), rt(r) {}
    virtual ~tasync_awaitable();
    tasync_awaitable(const tasync_awaitable &) = delete;
    tasync_awaitable &operator=(const tasync_awaitable &) = delete;

    tasync::detail::AwaitableKind kind;
    bool completed = false;
    // Its error was handed to someone who answers for it (rule S10): an
    // awaiter, a combinator, a group's reader. See tasync::detail::observe.
    bool observed = false;
    std::uint32_t refs = 1;
    tasync_runtime *rt;            // nullptr once the runtime is gone
    void *value = nullptr;         // outcome, owned
    void *error = nullptr;
    tasync::detail::WaiterList waiters;
    tasync::detail::Link all_link; // in the runtime's list of awaitables

    void add_waiter(tasync::detail::Waiter *w);
    void remove_waiter(tasync::detail::Waiter *w);
    // Records the outcome (references are taken over) and wakes every waiter.
    void complete(void *value, void *error);
    virtual void waiters_changed() {}
    // Frees the object: releases the outcome while the runtime lives.
    virtual void destroy();
    // Drops everything that ties the object to its runtime (runtime teardown).
    virtual void detach();
};

namespace tasync::detail {
// Rule S10 (Future semantics): aw's outcome was handed to someone who
// answers for its error (an awaiter, a combinator, a group's reader), so a
// coroutine's error will not escalate through the scope tree; a coroutine
// parked holding that error (hold_error) is released to finish. Idempotent.
void observe(tasync_awaitable *aw);
// True when caller may read aw's outcome now: aw completed, or caller is a
// finally handler of the coroutine aw (whose awaiters wait for it, C11).
bool outcome_ready(const tasync_awaitable *aw, const tasync_coroutine *caller);
}  // namespace tasync::detail
