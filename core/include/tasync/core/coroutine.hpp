// A coroutine's record: its switch context and stack, its state in the
// scheduler, its cancellation, its place in the scope tree, and the
// structured-concurrency bookkeeping of its outcome (scope.cpp, group.cpp).
#pragma once

#include <tasync/runtime.h>
#include <tasync/scope.h>

#include <cstdint>
#include <vector>

#include "awaitable.hpp"
#include "fcontext.hpp"
#include "stack_pool.hpp"

struct tasync_scope;
struct tasync_context;

namespace tasync::detail {
struct GroupTask;
// References a core frame holds on a coroutine's stack across a call that
// may suspend (tasync_coroutine::stack_holds): an error and scopes.
struct StackHold {
    void *const *error = nullptr;          // the frame's variable: its current value is owned
    tasync_scope *const *scope = nullptr;  // likewise, one reference
    tasync_scope *owner = nullptr;         // one more reference while a handler of it runs
    StackHold *next = nullptr;
};
}  // namespace tasync::detail
struct tasync_coroutine : tasync_awaitable {
    explicit tasync_coroutine(tasync_runtime *r) : tasync_awaitable(tasync::detail::AwaitableKind::Coroutine, r) {}
    ~tasync_coroutine() override;

    enum class State : std::uint8_t { New, Ready, Running, Waiting, Finished };

    // What a switch touches comes first, in one cache line: with thousands
    // of suspended coroutines every extra line per switch is a cache miss.
    tasync::detail::fcontext_t ctx = nullptr;
    tasync::detail::Wait *wait = nullptr;      // current suspension
    State state = State::New;
    bool cancel_pending = false;   // requested, not delivered yet
    bool stack_released = false;
    bool is_main = false;
    bool started = false;
    bool zombie = false;
    bool cancel_requested = false;
    std::uint32_t protect_depth = 0;
    bool runtime_ref = false;      // the runtime holds a reference (until the stack is gone)
    bool high_priority = false;    // queued at the front when it becomes runnable
    bool aborted = false;          // marked by tasync_runtime_abort (C22)
    void *host_data = nullptr;

    std::uint64_t id = 0;
    void *cancel_error = nullptr;  // owned: the cancellation requested
    // Owned: the cancellation this coroutine last turned into a failed
    // blocking call (rule C18, cancelled_call_raises); seen again, it raises.
    void *soft_cancel = nullptr;
    tasync::detail::Stack stack;
    tasync::detail::SwitchAnnotations ann;

    tasync_entry_cb entry = nullptr;
    void *arg = nullptr;
    void (*arg_release)(void *) = nullptr;

    tasync_scope *scope = nullptr;             // owned reference
    tasync::detail::Link scope_link;           // in scope->coroutines while unfinished

    tasync_location_t spawn_loc{};
    tasync_location_t suspend_loc{};

    // Structured concurrency (scope.cpp, group.cpp, context.cpp).
    bool finishing = false;        // its error is being propagated (S10): the outcome is final
    bool error_routed = false;     // S10 ran for its error (before_finish)
    // The outcome is final and the coroutine left its scope (finish_outcome);
    // `completed` (awaiters resume) follows once its finally handlers ran (C11).
    bool done = false;
    // Future semantics (S10): parked on its own stack, keeping its error for
    // later awaiters while the host holds handles (see hold_error).
    bool holding = false;
    bool release_hold = false;     // stop holding: the program reached its end
    bool escalating = false;       // counted active again while its held error escalates
    std::uint32_t handles = 0;     // references held through the ABI (the host's), not the core's own
    std::uint32_t finally_running = 0;         // its finally handlers that have not finished (C11)
    tasync_coroutine *finally_of = nullptr;    // on a finally handler: whose it is (referenced)
    bool holds_awaiters = false;   // on a finally handler: counted in finally_of->finally_running
    // On a finally handler: the owning scope (referenced), which counts the
    // handler among its unfinished coroutines and receives its error (C11).
    tasync_scope *charged = nullptr;
    bool held = false;             // created by a group, waiting for a concurrency slot
    tasync::detail::GroupTask *group_task = nullptr;
    std::vector<tasync_spawn_options_t> *finally_cbs = nullptr;  // C11
    tasync_context *context = nullptr;         // private context (X2), created on use
    // What core frames on this coroutine's stack hold while code they call
    // may suspend (S10's error flow around an exception handler): innermost
    // first, each record on that stack. Runtime teardown drops a suspended
    // stack without unwinding it and releases these instead.
    tasync::detail::StackHold *stack_holds = nullptr;

    void destroy() override;
    void detach() override;
};

struct tasync_future_impl;
