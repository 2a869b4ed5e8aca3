// Waiting on the reactor: fd readiness (one backend handle per fd, shared by
// every waiter, G4), until a deadline of the wait's own if it has one, and
// offloaded blocking work. Signals and child exits are
// in signals.cpp and children.cpp.
#include <fcntl.h>
#include <cerrno>
#include <cstring>

#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_deadline.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

// ------------------------------------------------------------------ fds

unsigned union_of(FdWatch *watch) {
    unsigned u = 0;
    for (FdWaiter *f = watch->waiters.front(); f != nullptr; f = watch->waiters.next(f)) u |= f->events;
    return u;
}

// A waiter leaves watch's list (woken, timed out, or unregistered): the
// count of waiters with a deadline follows the list, never a wait that
// resumes later (its fd may have been forgotten and the watch deleted).
void waiter_left(tasync_runtime *rt, FdWatch *watch, FdWaiter *f) {
    if (f->deadline != 0 && --watch->deadline_waiters == 0)
        rt->timers.set_ref(&watch->deadline_timer, false);
}

// The fd's deadline entry fired: the waiters whose deadline passed time out
// (an answer: no error object); the entry moves to the next deadline.
void deadline_fired(TimerEntry *e) {
    auto *watch = static_cast<FdWatch *>(e->owner);
    tasync_runtime *rt = watch->rt;
    const std::uint64_t now = rt->now();
    std::uint64_t next = 0;
    watch->waiters.for_each([&](FdWaiter *f) {
        if (f->deadline == 0 || f->wait->done) return;
        if (f->deadline <= now) {
            watch->waiters.remove(f);
            waiter_left(rt, watch, f);
            f->wait->timed_out = true;
            rt->wake(f->wait, -ETIMEDOUT);
            return;
        }
        if (next == 0 || f->deadline < next) next = f->deadline;
    });
    if (next != 0) rt->timers.arm(e, next);
}

void deadline_join(tasync_runtime *rt, FdWatch *watch, std::uint64_t deadline) {
    TimerEntry &t = watch->deadline_timer;
    if (!t.armed() || t.deadline > deadline) rt->timers.arm(&t, deadline);
    if (watch->deadline_waiters++ == 0) rt->timers.set_ref(&t, true);
}

void fd_callback(tasync_handle_t *, void *data, int status, unsigned revents) {
    auto *watch = static_cast<FdWatch *>(data);
    tasync_runtime *rt = watch->rt;
    if (status < 0) {
        // The backend stopped the handle; every waiter gets to try its
        // operation and see the real error.
        watch->interest = 0;
        while (FdWaiter *f = watch->waiters.pop_front()) {
            waiter_left(rt, watch, f);
            f->wait->revents = f->events | TASYNC_IO_ERROR;
            rt->wake(f->wait, 0);
        }
        return;
    }
    bool woke = false;
    watch->waiters.for_each([&](FdWaiter *f) {
        unsigned m = revents & (f->events | TASYNC_IO_HANGUP | TASYNC_IO_ERROR);
        if (m == 0) return;
        watch->waiters.remove(f);
        waiter_left(rt, watch, f);
        f->wait->revents = m;
        rt->wake(f->wait, 0);
        woke = true;
    });
    if (!woke) {
        // Level-triggered readiness nobody wants now: narrow the interest so
        // that an idle fd does not keep the poll busy.
        unsigned want = union_of(watch);
        if (want != watch->interest) {
            watch->interest = want;
            if (want == 0) rt->reactor()->io_stop(watch->handle);
            else rt->reactor()->io_start(watch->handle, want);
        }
    }
}

struct FdWait : Wait {
    tasync_runtime *rt = nullptr;
    FdWatch *watch = nullptr;  // touched only while node is in its list
    FdWaiter node;
    CancelLink cancel;
    bool counted = false;
};

void fd_cleanup(Wait *w) {
    auto *fw = static_cast<FdWait *>(w);
    if (fw->watch != nullptr && fw->node.link.linked()) {
        fw->watch->waiters.remove(&fw->node);
        waiter_left(fw->rt, fw->watch, &fw->node);
    }
    fw->cancel.detach();
    if (fw->counted) {
        --fw->rt->io_waiters;
        fw->counted = false;
    }
}

// -------------------------------------------------------------- offload

struct OffloadWait : Wait {
    tasync_runtime *rt = nullptr;
    tasync_work_t work{};
    void (*fn)(void *) = nullptr;
    void *data = nullptr;
    // The cancellation awaitable: not a CancelLink, whose firing would end
    // the wait while a thread may still run the work (this record lives on
    // the waiting coroutine's stack). It asks for the work to be taken
    // back instead, as a cancellation of the coroutine does.
    Waiter cancel_waiter;
    tasync_awaitable *cancellation = nullptr;
    bool cancellation_fired = false;
    bool by_coroutine = false;  // the coroutine's cancellation asked for the work back
    bool in_flight = false;
    bool cancel_sent = false;
};

void offload_run(tasync_work_t *work) {
    auto *ow = static_cast<OffloadWait *>(work->data);
    ow->fn(ow->data);
}

void offload_done(tasync_work_t *work, int status) {
    auto *ow = static_cast<OffloadWait *>(work->data);
    ow->in_flight = false;
    --ow->rt->jobs_in_flight;
    // Taken back for the cancellation awaitable alone (C5).
    if (status == -ECANCELED && ow->cancellation_fired && !ow->by_coroutine) status = TASYNC_EAWAIT_CANCELLED;
    ow->rt->wake(ow, status);
}

// Completion of core-pool work arrives on a worker thread.
void offload_posted(void *p) {
    auto *work = static_cast<tasync_work_t *>(p);
    work->done(work, static_cast<int>(reinterpret_cast<std::intptr_t>(work->internal[0])));
}

// Asks for the work back: true when it was taken back at once.
bool offload_take_back(OffloadWait *ow) {
    if (!ow->in_flight || ow->cancel_sent) return false;
    ow->cancel_sent = true;
    tasync_runtime *rt = ow->rt;
    if (rt->pool && rt->pool->cancel(&ow->work)) {
        ow->in_flight = false;
        --rt->jobs_in_flight;
        return true;
    }
    return false;  // running: the cancellation is delivered when it ends
}

bool offload_on_cancel(Wait *w) {
    auto *ow = static_cast<OffloadWait *>(w);
    ow->by_coroutine = true;
    return offload_take_back(ow);
}

// The cancellation awaitable completed: the work is taken back if it has
// not started; otherwise the wait ends when it has run.
void offload_cancellation_fired(Waiter *waiter, tasync_awaitable *) {
    auto *ow = static_cast<OffloadWait *>(waiter->data);
    ow->cancellation_fired = true;
    if (offload_take_back(ow)) ow->rt->wake(ow, TASYNC_EAWAIT_CANCELLED);
}

void offload_cleanup(Wait *w) {
    auto *ow = static_cast<OffloadWait *>(w);
    if (ow->cancellation != nullptr) {
        if (ow->cancel_waiter.link.linked()) ow->cancellation->remove_waiter(&ow->cancel_waiter);
        tasync_awaitable *c = ow->cancellation;
        ow->cancellation = nullptr;
        if (--c->refs == 0) c->destroy();
    }
}

// tasync_await_fd and tasync_await_fd_until (deadline 0: none).
int await_fd(tasync_runtime *rt, int fd, unsigned events, std::uint64_t deadline, tasync_awaitable *cancellation,
             unsigned *revents, void **out_error) {
    if (revents != nullptr) *revents = 0;
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    events &= TASYNC_IO_READABLE | TASYNC_IO_WRITABLE | TASYNC_IO_PRIORITY;
    if (fd < 0 || events == 0) return system_error(rt, -EINVAL, "cannot wait on the file descriptor", out_error);
    if (deadline_passed(rt, deadline)) return -ETIMEDOUT;

    if (static_cast<std::size_t>(fd) >= rt->fd_watches.size()) rt->fd_watches.resize(fd + 1, nullptr);
    FdWatch *watch = rt->fd_watches[fd];
    if (watch == nullptr) {
        watch = new FdWatch;
        watch->rt = rt;
        watch->fd = fd;
        watch->deadline_timer.ref = false;
        watch->deadline_timer.fire = &deadline_fired;
        watch->deadline_timer.owner = watch;
        // The fd and its file description are the caller's, shared with
        // whoever else holds them (a child at the other end of a pipe, the
        // shell that gave us STDIN). Readiness needs no O_NONBLOCK, but a
        // backend may set it (libuv's uv_poll_init does): the file status
        // flags are put back as they were.
        const int flags = fcntl(fd, F_GETFL);
        int rc = rt->reactor()->io_open(rt->loop, fd, &fd_callback, watch, &watch->handle);
        if (rc != 0) {
            delete watch;
            return system_error(rt, rc, "cannot watch the file descriptor", out_error);
        }
        if (flags != -1 && !(flags & O_NONBLOCK) && (fcntl(fd, F_GETFL) & O_NONBLOCK)) (void)fcntl(fd, F_SETFL, flags);
        rt->fd_watches[fd] = watch;
    }
    FdWait w;
    w.kind = WaitKind::Fd;
    w.fd = fd;
    w.rt = rt;
    w.cleanup = &fd_cleanup;
    if (!w.cancel.attach(&w, cancellation)) {
        return cancelled_at_once(rt, w, out_error);
    }
    unsigned want = watch->interest | events;
    if (want != watch->interest) {
        int rc = rt->reactor()->io_start(watch->handle, want);
        if (rc != 0) {
            w.cancel.detach();
            return system_error(rt, rc, "cannot watch the file descriptor", out_error);
        }
        watch->interest = want;
    }
    w.watch = watch;
    w.events = events;
    w.node.wait = &w;
    w.node.events = events;
    watch->waiters.push_back(&w.node);
    ++rt->io_waiters;
    w.counted = true;
    if (deadline != 0) {
        w.deadline = w.node.deadline = deadline;
        deadline_join(rt, watch, deadline);
    }
    rt->suspend_on(w);
    if (revents != nullptr && w.code == 0) *revents = w.revents;
    return finish_wait(rt, w, nullptr, out_error);
}

}  // namespace

extern "C" {

TASYNC_API int tasync_await_fd(tasync_runtime_t *rt, int fd, unsigned events, tasync_awaitable_t *cancellation,
                               unsigned *revents, void **out_error) {
    return await_fd(rt, fd, events, 0, cancellation, revents, out_error);
}

TASYNC_API int tasync_await_fd_until(tasync_runtime_t *rt, int fd, unsigned events, uint64_t deadline_ns,
                                     tasync_awaitable_t *cancellation, unsigned *revents, void **out_error) {
    return await_fd(rt, fd, events, deadline_ns, cancellation, revents, out_error);
}

TASYNC_API void tasync_fd_forget(tasync_runtime_t *rt, int fd) {
    rt = running_runtime(rt);
    if (rt == nullptr || fd < 0) return;
    if (static_cast<std::size_t>(fd) < rt->fd_info.size()) rt->fd_info[fd] = FdInfo{};
    if (static_cast<std::size_t>(fd) >= rt->fd_watches.size()) return;
    FdWatch *watch = rt->fd_watches[fd];
    if (watch == nullptr) return;
    rt->fd_watches[fd] = nullptr;
    while (FdWaiter *f = watch->waiters.pop_front()) rt->wake(f->wait, -EBADF);
    rt->timers.disarm(&watch->deadline_timer);
    rt->reactor()->handle_close(watch->handle);
    // Waits still point at the watch until they resume; they touch it only
    // while their node is in its list, which pop_front emptied.
    delete watch;
}

TASYNC_API int tasync_offload(tasync_runtime_t *rt, void (*fn)(void *data), void *data,
                              tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (fn == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    OffloadWait w;
    w.kind = WaitKind::Offload;
    w.rt = rt;
    w.fn = fn;
    w.data = data;
    w.keeps_result = true;
    w.on_cancel = &offload_on_cancel;
    w.cleanup = &offload_cleanup;
    w.work.size = sizeof(w.work);
    w.work.run = &offload_run;
    w.work.done = &offload_done;
    w.work.data = &w;
    if (cancellation != nullptr && cancellation->completed) return cancelled_at_once(rt, w, out_error);
    auto *co = rt->current;
    if (co->cancel_pending && co->protect_depth == 0) {
        // C8: a cancellation requested while the coroutine ran interrupts
        // this suspension at once, and the work never starts. Submitting it
        // first and taking it back would be too late on a pool that starts
        // queued work at once (libuv's).
        w.on_cancel = nullptr;
        rt->suspend_on(w);
        return finish_wait(rt, w, nullptr, out_error);
    }
    if (!rt->pool) {
        tasync_runtime *self = rt;
        rt->pool = std::make_unique<ThreadPool>(rt->thread_pool_size, [self](tasync_work_t *work, int status) {
            work->internal[0] = reinterpret_cast<void *>(static_cast<std::intptr_t>(status));
            self->post(&offload_posted, work);
        });
    }
    if (rt->pool->submit(&w.work) != 0) {
        // No thread runs and none could be started (a process limit, no
        // room for a thread's stack): the work runs here, blocking the
        // runtime's thread as the same call does without the runtime,
        // rather than failing a call that has no such failure.
        if (!rt->warned_no_thread) {
            rt->warned_no_thread = true;
            rt->warn("no thread could be started for offloaded work: it runs on the runtime's thread, and the other "
                     "coroutines wait meanwhile");
        }
        fn(data);
        return 0;
    }
    w.in_flight = true;
    ++rt->jobs_in_flight;
    if (cancellation != nullptr) {
        ++cancellation->refs;
        w.cancellation = cancellation;
        w.cancel_waiter.notify = &offload_cancellation_fired;
        w.cancel_waiter.data = &w;
        cancellation->add_waiter(&w.cancel_waiter);
    }
    rt->suspend_on(w);
    return finish_wait(rt, w, nullptr, out_error);
}

}  // extern "C"
