// Callback timers (tasync_timer_*): entries in the core's timer heap, so that
// re-arming one among thousands costs a sift, not a backend call.
#include <cerrno>

#include "tasync/core/runtime.hpp"

using namespace tasync::detail;

namespace {

// a + b, or the end of the clock: a deadline beyond it is never reached
// (rather than wrapping around into the past and firing at once).
std::uint64_t add_saturating(std::uint64_t a, std::uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

void timer_fired(TimerEntry *e) {
    auto *t = static_cast<tasync_timer *>(e->owner);
    tasync_runtime *rt = t->rt;
    if (t->repeat != 0) {
        // Re-arm from the scheduled time; after a long stall, from now
        // (no burst of catch-up calls).
        std::uint64_t next = add_saturating(e->deadline, t->repeat);
        std::uint64_t n = rt->now();
        rt->timers.arm(e, next > n ? next : add_saturating(n, t->repeat));
    }
    t->in_callback = true;
    t->cb(t, t->data);
    t->in_callback = false;
    if (t->destroy_pending) {
        rt->timers.disarm(e);
        rt->callback_timers.remove(t);
        delete t;
    }
}

}  // namespace

extern "C" {

TASYNC_API int tasync_timer_create(tasync_runtime_t *rt, tasync_timer_fn cb, void *data, tasync_timer_t **out) {
    if (rt == nullptr) rt = tls_runtime;
    if (rt == nullptr || cb == nullptr || out == nullptr) return -EINVAL;
    auto *t = new tasync_timer;
    t->rt = rt;
    t->cb = cb;
    t->data = data;
    t->entry.fire = &timer_fired;
    t->entry.owner = t;
    rt->callback_timers.push_back(t);
    *out = t;
    return 0;
}

TASYNC_API int tasync_timer_start(tasync_timer_t *t, uint64_t timeout_ns, uint64_t repeat_ns) {
    if (t == nullptr || t->destroy_pending) return -EINVAL;
    t->repeat = repeat_ns;
    t->rt->timers.arm(&t->entry, add_saturating(t->rt->fresh_now(), timeout_ns));
    return 0;
}

TASYNC_API int tasync_timer_stop(tasync_timer_t *t) {
    if (t == nullptr) return -EINVAL;
    t->rt->timers.disarm(&t->entry);
    return 0;
}

TASYNC_API void tasync_timer_set_ref(tasync_timer_t *t, int ref) {
    if (t != nullptr) t->rt->timers.set_ref(&t->entry, ref != 0);
}

TASYNC_API void tasync_timer_destroy(tasync_timer_t *t) {
    if (t == nullptr) return;
    if (t->in_callback) {
        t->destroy_pending = true;
        return;
    }
    t->rt->timers.disarm(&t->entry);
    t->rt->callback_timers.remove(t);
    delete t;
}

}  // extern "C"
