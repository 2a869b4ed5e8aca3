// A scope of the scope tree (rules S1-S15): its coroutines and children,
// the counters of what is unfinished below it, its error flow (S10), its
// handlers and whoever waits for it. See scope.cpp.
#pragma once

#include <tasync/scope.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "context.hpp"
#include "coroutine.hpp"
#include "list.hpp"
#include "timer_heap.hpp"
#include "wait.hpp"
// --------------------------------------------------------------------- scope

namespace tasync::detail {

// A host handler registered on a scope.
struct HandlerSlot {
    tasync_exception_handler_cb fn = nullptr;
    void *data = nullptr;
    void (*release)(void *) = nullptr;
    void reset() {
        if (release != nullptr) release(data);
        fn = nullptr;
        data = nullptr;
        release = nullptr;
    }
};

// A coroutine waiting on a scope: for completion (S4) or, after
// cancellation, for every coroutine (S5), collecting errors for its handler.
struct ScopeWaiter {
    enum Role : std::uint8_t { Completion, AfterCancel };
    Link link;
    Wait *wait = nullptr;
    Role role = Completion;
    tasync_scope_error_cb handler = nullptr;
    std::vector<void *> errors;  // owned, delivered to handler by the waiter
};
using ScopeWaiterList = List<ScopeWaiter, &ScopeWaiter::link>;

}  // namespace tasync::detail

struct tasync_scope {
    std::uint32_t refs = 1;
    tasync_runtime *rt = nullptr;
    tasync_scope *parent = nullptr;            // owned reference
    std::uint64_t id = 0;
    bool is_global = false;
    bool closed = false;
    bool cancelled = false;
    bool disposed = false;
    bool completed = false;                    // S12 callbacks ran
    bool not_safely = false;                   // S8
    bool failed = false;                       // S10
    bool awaited = false;                      // S15: someone called await_completion
    tasync::detail::Link child_link;           // in parent->children
    tasync::detail::Link all_link;             // in rt->scopes
    tasync::detail::List<tasync_scope, &tasync_scope::child_link> children;
    tasync::detail::List<tasync_coroutine, &tasync_coroutine::scope_link> coroutines;
    std::size_t active = 0;                    // own unfinished coroutines, not zombie
    std::size_t zombies = 0;
    std::size_t sub_active = 0;                // the same over the subtree
    std::size_t sub_all = 0;                   // unfinished over the subtree, zombies included
    void *cancel_error = nullptr;              // owned
    void *failure = nullptr;                   // owned: the error that failed it (S10)
    // Errors no responsibility point has received yet (S10), with the
    // coroutine each came from (both referenced): they move to the parent
    // when the owner lets go of the scope (dispose) without awaiting it.
    struct Undelivered {
        void *error;
        tasync_coroutine *co;
    };
    std::vector<Undelivered> undelivered;
    tasync::detail::HandlerSlot exception_handler;
    tasync::detail::HandlerSlot child_handler;
    std::vector<tasync_spawn_options_t> finally_cbs;
    tasync::detail::ScopeWaiterList waiters;
    tasync::detail::TimerEntry dispose_timer;  // disposeAfterTimeout
    std::unique_ptr<tasync_context> context;
    void *host_data = nullptr;
    tasync_location_t created_at{};
    tasync_location_t disposed_at{};
};
