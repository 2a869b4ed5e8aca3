// Every expectation of the randomized tester that depends on a semantic rule
// still being settled lives here, so that a rule change is one edit.
//
// What the tester holds as stable everywhere else: an awaiter gets the
// coroutine's own result or error object (C4); a coroutine cancelled before
// it started never runs its entry (C7); the first cancellation wins and is
// delivered at the next suspension point (C7, C8), after the outermost
// protect section (C20); counts, lists and lifetimes of coroutines and
// scopes; every retain has its release.
//
// What it deliberately does not predict: *when* an unhandled error leaves a
// coroutine for its scope (S10 "future semantics" moves that from the end of
// the coroutine to the release of its last handle). The tester installs
// exception handlers and observes their calls, and accepts a scope failing,
// or the runtime shutting down, only when some unhandled error could have
// caused it.
#pragma once

#include <cstddef>
#include <vector>

#include "model.hpp"

namespace tasync_random::expect {

// C11: a coroutine's onFinally callbacks have run before any awaiter of it
// resumes. The core of this round still wakes awaiters first; flip to true
// when it runs the callbacks first.
inline constexpr bool kFinallyBeforeAwaiters = true;

// C11, S12 as of ABI 1.2: finally handlers are defers (they always start,
// run protected, are charged to the owner's scope, and hold the owner's
// awaiters); Episode::spawn_finally models that. False leaves out the
// operations that register them.
inline constexpr bool kFinallyHandlersModelled = true;

// G1: releasing a group with tasks it held back for a concurrency slot.
// True: they start anyway (ABI 1.1's core). False: they never start (ABI
// 1.2's G1: "tasks not started never start"; see Episode::learn_let_go).
inline constexpr bool kReleasedGroupStartsHeldTasks = false;

// X2: the context of a root scope (new Scope()) has the global scope's
// context as its parent (this round's context.h). The new X2 says a root
// scope does not see rootContext(): flip to false then.
inline constexpr bool kRootScopeContextHasGlobalParent = false;

// A coroutine that calls a suspending function while a cancellation is
// pending, when the call needs no suspension (the awaited thing is already
// complete): the core may deliver the cancellation there or keep it for the
// next real suspension. Both are accepted; set to true to require delivery.
inline constexpr bool kFastPathDeliversCancellation = false;

// Group awaitables (G1, group.h): the outcome all/race/any complete with,
// given the tasks in completion order. Returns false while it must not
// have completed yet. *index receives the task whose outcome it carries
// (-1: the value build_results made).
struct GroupOutcome {
    bool failed = false;
    long index = -1;
};

inline bool group_outcome(AwRec::Kind kind, const GroupRec &g, GroupOutcome *out) {
    const std::size_t unfinished = g.tasks.size() - g.completed.size();
    switch (kind) {
        case AwRec::Kind::GroupAll:
            if (unfinished != 0) return false;
            for (std::size_t i = 0; i < g.completed.size(); ++i) {
                if (g.completed[i]->outcome_failed) {
                    *out = {true, static_cast<long>(i)};
                    return true;
                }
            }
            *out = {false, -1};
            return true;
        case AwRec::Kind::GroupRace:
            if (g.completed.empty()) return false;
            *out = {g.completed[0]->outcome_failed, 0};
            return true;
        case AwRec::Kind::GroupAny: {
            for (std::size_t i = 0; i < g.completed.size(); ++i) {
                if (!g.completed[i]->outcome_failed) {
                    *out = {false, static_cast<long>(i)};
                    return true;
                }
            }
            if (unfinished != 0 || g.completed.empty()) return false;
            *out = {true, 0};
            return true;
        }
        default: return false;
    }
}

}  // namespace tasync_random::expect
