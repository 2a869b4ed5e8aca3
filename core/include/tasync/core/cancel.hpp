// Cancellation helpers shared by every function that suspends the running
// coroutine (rules C4-C6, C20). The cancellation of a coroutine itself is
// tasync_runtime::cancel and deliver_pending_cancel (cancel/cancel.cpp);
// a scope's is scope_cancel (scope/scope.cpp).
#pragma once

#include "runtime.hpp"

namespace tasync::detail {

// Registers a wait with its cancellation awaitable (rule C5): when that
// completes first, the wait ends with TASYNC_EAWAIT_CANCELLED.
struct CancelLink {
    Waiter waiter;
    tasync_awaitable *aw = nullptr;

    // False when c has already completed (the caller ends at once). A
    // cancelled timeout (tasync_timeout_cancel) never fires: no cancellation.
    bool attach(Wait *w, tasync_awaitable *c) {
        if (c == nullptr) return true;
        if (c->completed) return c->kind == AwaitableKind::Timeout && c->error != nullptr;
        aw = c;
        ++c->refs;
        waiter.wait = w;
        waiter.role = 1;
        c->add_waiter(&waiter);
        return true;
    }
    void detach() {
        if (aw == nullptr) return;
        if (waiter.link.linked()) aw->remove_waiter(&waiter);
        tasync_awaitable *a = aw;
        aw = nullptr;
        if (--a->refs == 0) a->destroy();
    }
};

}  // namespace tasync::detail
