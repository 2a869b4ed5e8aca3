// A deadline carried by a wait (ABI 1.3): the wait answers -ETIMEDOUT
// itself when it passes, with no timeout awaitable and no error object.
// tasync_await_until keeps it in the wait record (DeadlineLink: an entry of
// the runtime's timer heap on the waiting coroutine's stack, taken out when
// the wait ends otherwise). tasync_await_fd_until records it in the wait
// and lets the fd's watch hold one entry for all its waiters (io_watch.hpp),
// so that the reads of a keep-alive connection move nothing in the heap.
#pragma once

#include <cerrno>
#include <cstdint>

#include "runtime.hpp"

namespace tasync::detail {

struct DeadlineLink {
    TimerEntry timer;
    Wait *wait = nullptr;
    tasync_runtime *rt = nullptr;

    static void fired(TimerEntry *e) {
        auto *d = static_cast<DeadlineLink *>(e->owner);
        if (d->wait->done) return;  // woken otherwise first, in this pass
        // "Timed out" is an answer, not an error: no error object is made.
        d->wait->timed_out = true;
        d->rt->wake(d->wait, -ETIMEDOUT);
    }
    // Arms the deadline of w (0: none). It keeps the runtime alive while
    // armed, as a timeout awaitable does while awaited.
    void arm(tasync_runtime *r, Wait *w, std::uint64_t deadline) {
        w->deadline = deadline;
        if (deadline == 0) return;
        rt = r;
        wait = w;
        timer.fire = &DeadlineLink::fired;
        timer.owner = this;
        rt->timers.arm(&timer, deadline);
    }
    void disarm() {
        if (rt != nullptr) rt->timers.disarm(&timer);
    }
};

// A deadline that has passed already (deadline != 0): the wait ends at once
// with -ETIMEDOUT, before it could suspend.
inline bool deadline_passed(tasync_runtime *rt, std::uint64_t deadline) {
    return deadline != 0 && rt->now() >= deadline;
}

}  // namespace tasync::detail
