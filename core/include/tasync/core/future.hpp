// Futures (runtime.h's tasync_future_*, future.h, rule T2): awaitables the
// host completes once, with the locations of their creation and
// completion, and the report of a failure nobody observed (S10). Derived
// futures (tasync_future_then) are Futures completed by a Derivation
// (await/future.cpp).
#pragma once

#include <tasync/future.h>

#include "awaitable.hpp"
#include "list.hpp"

struct tasync_scope;

namespace tasync::detail {

struct Future final : tasync_awaitable {
    explicit Future(tasync_runtime *r) : tasync_awaitable(AwaitableKind::Future, r) {}

    bool report = false;             // TASYNC_FUTURE_REPORT_UNOBSERVED
    bool reported = false;           // its failure was reported
    tasync_location_t created_at{};  // tasync_future_create_ex's futures only
    tasync_location_t completed_at{};
    // Where an unobserved failure is reported (referenced; report only):
    // the scope current at creation.
    tasync_scope *scope = nullptr;
    // In the runtime's unobserved_futures while it failed, is not
    // observed and will be reported.
    Link unobserved_link;

    void destroy() override;
    void detach() override;
};

// Completes f with value and error (references taken over), as every
// completion of a future does: flags an unobserved failure for the report.
void future_settle(Future *f, void *value, void *error);
// observe() saw aw observed: a future leaves the list of failures to report.
void future_observed(tasync_awaitable *aw);
// A derived future's bookkeeping (future.cpp).
struct Derivation;

}  // namespace tasync::detail
