// Signals, the runtime's side: tasync_await_signal, the watch of the
// runtime's wake fd (its slot in the process-wide registry, see
// signal_registry.hpp) and the delivery of what the registry counted to
// the coroutines waiting. Every backend is driven the same way: only its fd
// readiness is used.
#include <cerrno>

#include "tasync/core/runtime.hpp"
#include "tasync/core/signal_registry.hpp"
#include "tasync/core/signals.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

void deliver(SignalWatch *watch) {
    if (watch->waiters.empty()) {
        ++watch->pending;  // delivered while nobody waited: not lost
        return;
    }
    while (Waiter *w = watch->waiters.pop_front()) watch->rt->wake(w->wait, 0);
}

void deliver_counted(void *ctx, int signum, unsigned count) {
    auto *rt = static_cast<tasync_runtime *>(ctx);
    if (signum == SIGCHLD && rt->signals->sigchld_users > 0) rt->signals->sigchld_check = true;
    auto it = rt->signal_watches.find(signum);
    if (it == rt->signal_watches.end()) return;
    // Each delivery once: the first wakes every waiter, the rest wait for
    // the next ones (coalesced deliveries may count once).
    for (unsigned i = 0; i < count; i++) deliver(it->second);
}

void wake_fd_ready(tasync_handle_t *handle, void *data, int status, unsigned) {
    auto *rt = static_cast<tasync_runtime *>(data);
    RuntimeSignals *s = rt->signals;
    // The backend stopped the handle after an error: watch again (the fd
    // is the runtime's own, it stays valid).
    if (status < 0) rt->reactor()->io_start(handle, TASYNC_IO_READABLE);
    signal_slot_take(s->slot, &deliver_counted, rt);
    if (s->sigchld_check) {
        s->sigchld_check = false;
        children_check(rt);
    }
}

int watch_wake_fd(tasync_runtime *rt) {
    RuntimeSignals *s = rt->signals;
    int rc = rt->reactor()->io_open(rt->loop, s->read_fd, &wake_fd_ready, rt, &s->handle);
    if (rc == 0) {
        rc = rt->reactor()->io_start(s->handle, TASYNC_IO_READABLE);
        if (rc != 0) {
            rt->ops->handle_close(s->handle);
            s->handle = nullptr;
        }
    } else {
        s->handle = nullptr;
    }
    return rc;
}

// The runtime's slot and its io watch, on first use.
int open_slot(tasync_runtime *rt) {
    if (rt->signals == nullptr) rt->signals = new RuntimeSignals;
    RuntimeSignals *s = rt->signals;
    if (s->slot != nullptr) return 0;
    int err = 0;
    s->slot = signal_slot_open(&s->read_fd, &err);
    if (s->slot == nullptr) return err;
    const int rc = watch_wake_fd(rt);
    if (rc != 0) {
        signal_slot_close(s->slot);
        s->slot = nullptr;
        s->read_fd = -1;
    }
    return rc;
}

struct SignalWait : Wait {
    tasync_runtime *rt = nullptr;
    SignalWatch *watch = nullptr;
    Waiter node;
    CancelLink cancel;
    bool counted = false;
};

void signal_cleanup(Wait *w) {
    auto *sw = static_cast<SignalWait *>(w);
    if (sw->node.link.linked()) sw->watch->waiters.remove(&sw->node);
    sw->cancel.detach();
    if (sw->counted) {
        --sw->rt->signal_waiters;
        sw->counted = false;
    }
}

}  // namespace

namespace tasync::detail {

int signals_watch(tasync_runtime *rt, int signum) {
    if (!signal_watchable(signum)) return -EINVAL;
    int rc = open_slot(rt);
    if (rc == 0) rc = signal_slot_watch(rt->signals->slot, signum);
    return rc;
}

void signals_unwatch(tasync_runtime *rt, int signum) {
    if (rt->signals != nullptr && rt->signals->slot != nullptr) signal_slot_unwatch(rt->signals->slot, signum);
}

void signals_kick(tasync_runtime *rt) {
    if (rt->signals != nullptr && rt->signals->slot != nullptr) signal_slot_kick(rt->signals->slot);
}

void signals_after_fork(tasync_runtime *rt) {
    RuntimeSignals *s = rt->signals;
    if (s == nullptr || s->slot == nullptr || rt->ops == &rt->refusing_ops) return;
    // The wake fd is the parent's too: the child's deliveries would wake
    // the parent, and whichever read it would take the other's wakeup.
    if (s->handle != nullptr) rt->ops->handle_close(s->handle);
    s->handle = nullptr;
    int rc = signal_slot_after_fork(s->slot, &s->read_fd);
    if (rc == 0) rc = watch_wake_fd(rt);
    if (rc != 0) rt->warn(std::string("cannot watch signals in the forked child: ") + tasync_strerror(rc));
    children_after_fork(rt);
}

void signals_teardown(tasync_runtime *rt) {
    children_teardown(rt);
    for (auto &kv : rt->signal_watches) {
        signals_unwatch(rt, kv.first);
        delete kv.second;
    }
    rt->signal_watches.clear();
    RuntimeSignals *s = rt->signals;
    if (s == nullptr) return;
    if (s->handle != nullptr) rt->ops->handle_close(s->handle);
    if (s->slot != nullptr) signal_slot_close(s->slot);
    delete s;
    rt->signals = nullptr;
}

}  // namespace tasync::detail

extern "C" {

TASYNC_API int tasync_await_signal(tasync_runtime_t *rt, int signum, tasync_awaitable_t *cancellation,
                                   void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (!signal_watchable(signum)) return system_error(rt, -EINVAL, "cannot wait for the signal", out_error);
    SignalWatch *watch;
    auto it = rt->signal_watches.find(signum);
    if (it == rt->signal_watches.end()) {
        // Watched from now on for the runtime's life, so that a delivery
        // between two waits is counted rather than meeting the default
        // action; the previous disposition comes back at teardown.
        const int rc = signals_watch(rt, signum);
        if (rc != 0) return system_error(rt, rc, "cannot watch the signal", out_error);
        watch = new SignalWatch;
        watch->rt = rt;
        watch->signum = signum;
        rt->signal_watches.emplace(signum, watch);
    } else {
        watch = it->second;
    }
    if (watch->pending > 0) {
        --watch->pending;
        return 0;
    }
    SignalWait w;
    w.kind = WaitKind::Signal;
    w.signum = signum;
    w.rt = rt;
    w.watch = watch;
    w.cleanup = &signal_cleanup;
    if (!w.cancel.attach(&w, cancellation)) {
        return cancelled_at_once(rt, w, out_error);
    }
    w.node.wait = &w;
    watch->waiters.push_back(&w.node);
    ++rt->signal_waiters;
    w.counted = true;
    rt->suspend_on(w);
    return finish_wait(rt, w, nullptr, out_error);
}

TASYNC_API int tasync_signal_reclaim(int signum) { return signal_reclaim(signum); }

}  // extern "C"
