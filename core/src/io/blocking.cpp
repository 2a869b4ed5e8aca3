// Blocking functions of extensions and of the host (runtime.h, ABI 1.2):
// whether the caller may suspend now, and the end of each of its waits. The
// rule after a cancelled wait (C18: the call fails as documented, the
// cancellation is delivered at the next suspension, and raised by the call
// when the coroutine ignored it once) is the core's (cancelled_call_raises);
// a host's wait_end only raises what the rule hands it and unwinds what it
// must, so that an extension's functions behave exactly like the host's own.
// Without a wait_end the core only makes the cancellation pending again.
#include <cerrno>

#include "tasync/core/runtime.hpp"

using namespace tasync::detail;

extern "C" {

TASYNC_API tasync_coroutine_t *tasync_coroutine_suspendable(tasync_runtime_t *rt) {
    if (rt == nullptr) rt = tls_runtime;
    // Objects of another thread's runtime are never used here.
    if (rt == nullptr || rt != tls_runtime) return nullptr;
    tasync_coroutine_t *co = rt->current;
    if (co == nullptr || co->completed) return nullptr;
    if (rt->host.may_suspend != nullptr && rt->host.may_suspend(rt->host_data, co, co->host_data) == 0) return nullptr;
    return co;
}

TASYNC_API int tasync_wait_end(tasync_runtime_t *rt, int rc, void *error) {
    if (rt == nullptr) rt = tls_runtime;
    if (rt == nullptr || rt != tls_runtime || rt->current == nullptr) {
        // Misuse: nothing waited here. The error is still released.
        if (rt != nullptr) rt->release_error(error);
        return rc;
    }
    tasync_coroutine_t *co = rt->current;
    if (rt->host.wait_end != nullptr) {
        // The host raises the cancellation only when the rule says so.
        if (rc == -ECANCELED && error != nullptr && !rt->cancelled_call_raises(co, error)) error = nullptr;
        return rt->host.wait_end(rt->host_data, co, co->host_data, rc, error);
    }
    if (rc == -ECANCELED) tasync_coroutine_repend_cancellation(co);
    rt->release_error(error);
    return rc;
}

}  // extern "C"
