// Awaiting many awaitables at once (rule G2, api/include/tasync/await_many.h):
// the one combinator of the core. The set is itself an awaitable that
// completes when its outcome is decided; the PHP await_*() functions drive
// it through the C ABI, task groups (group.cpp) feed it their tasks and
// decide the value it completes with through a hook.
//
// Cost: adding an item is one waiter registration; an item completing is
// O(1) (recorded, counters updated, the condition checked); deciding
// unregisters what is still pending. n items completing together cost O(n)
// in all, and wake the waiting coroutine once.
#pragma once

#include <tasync/await_many.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "runtime.hpp"

struct tasync_await_many final : tasync_awaitable {
    struct Item {
        tasync::detail::Waiter waiter;    // on `what` while subscribed
        tasync_await_many *set = nullptr;
        tasync_awaitable *what = nullptr; // referenced while the set lives
        std::size_t index = 0;
        std::uint32_t state = TASYNC_AWAIT_ITEM_PENDING;
    };

    tasync_await_many(tasync_runtime *r, std::uint32_t m, std::uint64_t c)
        : tasync_awaitable(tasync::detail::AwaitableKind::Many, r), mode(m), count(c) {}

    std::uint32_t mode;
    std::uint64_t count;
    bool sealed = false;
    bool decided = false;
    int outcome = 0;                  // 0 or TASYNC_EFAILED once decided
    std::deque<Item> items;           // feed order; addresses are stable
    std::vector<Item *> taken;        // completion order
    std::size_t successes = 0;
    std::size_t failures = 0;
    Item *first_failure = nullptr;
    Item *first_success = nullptr;

    // Set by an owner that decides what the set completes with (task
    // groups): called once, at the decision, with the default outcome in
    // *value and *error (borrowed); it leaves new references there (its own
    // or the defaults retained) and must not suspend.
    struct Hook {
        void (*decide)(tasync_await_many *set, void *data, void **value, void **error) = nullptr;
        // The set is going away (destroyed or detached): forget it.
        void (*forget)(tasync_await_many *set, void *data) = nullptr;
        void *data = nullptr;
    } hook;

    // Feeds an item; no sealed check (task groups feed sealed sets). The
    // caller checked that what belongs to the set's runtime.
    void add(tasync_awaitable *what);
    void seal();
    // True when the set waits for nothing it could decide on (ANY_OR_FAIL
    // or FIRST_SUCCESS without items, once sealed).
    bool hopeless() const {
        return sealed && !decided && items.empty() &&
               (mode == TASYNC_AWAIT_ANY_OR_FAIL || mode == TASYNC_AWAIT_FIRST_SUCCESS);
    }
    bool all_taken() const { return taken.size() == items.size(); }
    // For introspection: "awaiting all of 3 awaitables", ...
    std::string describe() const;

    void destroy() override;
    void detach() override;

    // Internal: an item completed (called by its waiter).
    void settle(Item *it, tasync_awaitable *source);
    void evaluate();
    void decide(int code, Item *decider);
    void unsubscribe();
};
