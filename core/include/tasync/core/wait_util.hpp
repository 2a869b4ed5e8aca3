// Helpers shared by every function that suspends the running coroutine:
// argument checks and handing a finished wait's outcome to the caller's out
// parameters. The cancellation-awaitable registration is in cancel.hpp.
#pragma once

#include <string>

#include "cancel.hpp"
#include "runtime.hpp"

namespace tasync::detail {

inline tasync_runtime *running_runtime(tasync_runtime *rt) { return rt != nullptr ? rt : tls_runtime; }

inline int not_in_coroutine(tasync_runtime *rt, void **out_error) {
    if (out_error != nullptr && rt != nullptr)
        *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ENOT_IN_COROUTINE,
                                    "This operation must be called from a coroutine");
    return TASYNC_ENOT_IN_COROUTINE;
}

// Rule C6: the running coroutine asked to wait for itself.
inline int self_await(tasync_runtime *rt, void **out_error) {
    if (out_error != nullptr) {
        tasync_coroutine *self = rt->current;
        std::string msg = "A coroutine cannot await itself";
        if (!self->is_main && self->spawn_loc.file != nullptr)
            msg += ". Coroutine spawned" + tasync_runtime::at(self->spawn_loc);
        *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ESELF_AWAIT, msg);
    }
    return TASYNC_ESELF_AWAIT;
}

// Returns code after creating a system error for it ("what: strerror").
inline int system_error(tasync_runtime *rt, int code, const char *what, void **out_error) {
    if (out_error != nullptr)
        *out_error = rt->make_error(TASYNC_ERROR_SYSTEM, code, std::string(what) + ": " + tasync_strerror(code));
    return code;
}

// Hands the outcome of a finished wait to the caller's out parameters
// (either may be NULL: the reference is then dropped) and returns its code.
inline int finish_wait(tasync_runtime *rt, Wait &w, void **out_value, void **out_error) {
    rt->fill_error(w);
    if (out_value != nullptr) *out_value = w.value;
    else rt->release_value(w.value);
    if (out_error != nullptr) *out_error = w.error;
    else rt->release_error(w.error);
    w.value = w.error = nullptr;
    return w.code;
}

// Ends a wait before suspending: its cancellation awaitable had completed.
inline int cancelled_at_once(tasync_runtime *rt, Wait &w, void **out_error) {
    w.co = rt->current;
    w.done = true;
    w.code = TASYNC_EAWAIT_CANCELLED;
    return finish_wait(rt, w, nullptr, out_error);
}

}  // namespace tasync::detail
