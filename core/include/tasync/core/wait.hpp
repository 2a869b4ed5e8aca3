// Suspension records: a Waiter registered on an awaitable, and the Wait that
// lives on a suspended coroutine's stack for the duration of one suspension
// (who woke it, with what, and what it waits for, for cancellation and
// introspection).
#pragma once

#include <tasync/runtime.h>

#include <cstdint>

#include "list.hpp"

struct tasync_awaitable;
namespace tasync::detail {

struct Wait;

// A registration of a waiting coroutine on an awaitable.
struct Waiter {
    Link link;
    Wait *wait = nullptr;    // the coroutine wait to wake, or nullptr
    // For waiters that are not coroutines (group awaitables, scopes): called
    // when the awaitable completes. The waiter is already unlinked.
    void (*notify)(Waiter *self, tasync_awaitable *source) = nullptr;
    void *data = nullptr;
    int role = 0;            // Wait-specific: which source this is
    // The registrant receives the awaitable's error (an awaiter, a group):
    // a coroutine error with such a waiter does not flow up the scope
    // tree (rule S10). Cancellation awaitables' waiters do not.
    bool handles_error = false;
};
using WaiterList = List<Waiter, &Waiter::link>;

enum class AwaitableKind : std::uint8_t { Coroutine, Future, Timeout, Many, ChannelOp };

// What a suspended coroutine waits for (introspection and cancellation);
// the values are those of tasync_wait_kind_t.
enum class WaitKind : std::uint8_t {
    None = TASYNC_WAIT_NONE,
    Yield = TASYNC_WAIT_YIELD,
    Park = TASYNC_WAIT_PARK,
    Await = TASYNC_WAIT_AWAIT,
    Delay = TASYNC_WAIT_DELAY,
    Fd = TASYNC_WAIT_FD,
    Signal = TASYNC_WAIT_SIGNAL,
    Child = TASYNC_WAIT_CHILD,
    Offload = TASYNC_WAIT_OFFLOAD,
    Op = TASYNC_WAIT_OP,
    Scope = TASYNC_WAIT_SCOPE,
    Group = TASYNC_WAIT_GROUP,
    End = TASYNC_WAIT_END,
    GroupSlot = TASYNC_WAIT_GROUP_SLOT,
    GroupCompletion = TASYNC_WAIT_GROUP_COMPLETION,
    ChannelSend = TASYNC_WAIT_CHANNEL_SEND,
    ChannelRecv = TASYNC_WAIT_CHANNEL_RECV,
    Pool = TASYNC_WAIT_POOL,
};

// Lives on the stack of the suspended coroutine for the duration of one
// suspension. Whoever wakes it first records the outcome; the coroutine
// unregisters the rest when it resumes.
struct Wait {
    tasync_coroutine *co = nullptr;
    WaitKind kind = WaitKind::None;
    bool done = false;
    int code = 0;
    void *value = nullptr;         // owned reference
    void *error = nullptr;         // owned reference
    unsigned revents = 0;
    int exit_status = 0;
    int term_signal = 0;
    // Called by cancel(): returns true when the wait may be woken with the
    // cancellation now, false when it must run to completion first (an
    // offloaded job or a kernel-owned buffer); the cancellation is then
    // delivered when the coroutine resumes.
    bool (*on_cancel)(Wait *) = nullptr;
    // Unregisters whatever is still registered (waiter nodes, timers, fd
    // waiters). Called when the coroutine resumes, and by runtime teardown
    // for coroutines that never resume. Must be idempotent.
    void (*cleanup)(Wait *) = nullptr;
    // Ops and offloaded work keep their real result when a cancellation
    // races their completion (nothing lost); the cancellation then waits for
    // the next suspension point.
    bool keeps_result = false;
    // Woken by the wait's own deadline (wait_deadline.hpp): -ETIMEDOUT is an
    // answer, and no error object is made for it.
    bool timed_out = false;
    // Introspection.
    tasync_awaitable *target = nullptr;
    tasync_scope *scope = nullptr;
    int fd = -1;
    unsigned events = 0;
    int signum = 0;
    int pid = 0;
    std::uint32_t count = 0;
    std::uint64_t deadline = 0;
    // ChannelSend, ChannelRecv: the channel; Pool: the pool.
    const void *object = nullptr;
};

}  // namespace tasync::detail
