// The awaitable base: waiters, completion (which wakes them) and the end
// of an awaitable's life.
#include "tasync/core/runtime.hpp"

using namespace tasync::detail;

// ================================================================= awaitable

tasync_awaitable::~tasync_awaitable() = default;

void tasync_awaitable::add_waiter(Waiter *w) {
    waiters.push_back(w);
    waiters_changed();
}

void tasync_awaitable::remove_waiter(Waiter *w) {
    if (!w->link.linked()) return;
    waiters.remove(w);
    waiters_changed();
}

void tasync_awaitable::complete(void *v, void *e) {
    completed = true;
    value = v;
    error = e;
    // A waiter's notify may drop the last reference another holder had
    // (a derived future releases its source, T2): the object outlives the
    // loop.
    ++refs;
    bool changed = !waiters.empty();
    while (Waiter *w = waiters.pop_front()) {
        if (w->notify != nullptr) {
            w->notify(w, this);
            continue;
        }
        if (w->wait == nullptr) continue;
        if (w->role == 0) {
            if (error != nullptr) observe(this);  // the awaiter receives it (C4, S10)
            rt->retain_value(value);
            rt->retain_error(error);
            rt->wake(w->wait, error != nullptr ? TASYNC_EFAILED : 0, value, error);
        } else {
            // The cancellation awaitable fired (C5); the awaiting coroutine
            // creates the AwaitCancelledException itself.
            rt->wake(w->wait, TASYNC_EAWAIT_CANCELLED);
        }
    }
    if (changed) waiters_changed();
    if (--refs == 0) destroy();
}

void tasync_awaitable::destroy() {
    if (rt != nullptr) {
        all_link.unlink();
        rt->release_value(value);
        rt->release_error(error);
    }
    delete this;
}

void tasync_awaitable::detach() {
    while (Waiter *w = waiters.pop_front()) (void)w;
    if (rt != nullptr) {
        rt->release_value(value);
        rt->release_error(error);
    }
    value = error = nullptr;
    completed = true;
    all_link.unlink();
    rt = nullptr;
}
