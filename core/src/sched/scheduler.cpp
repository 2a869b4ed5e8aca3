// The scheduler (docs/architecture.md): the run queue's slow path (ends of
// passes, starting new coroutines, blocking in the reactor), suspension and
// wake-up, polling the reactor, and callbacks posted from other threads.
// The hot path (pick_next, switch_to) is inline in runtime.hpp.
#include "tasync/core/runtime.hpp"

#include <cerrno>
#include <cstring>
#include <mutex>

namespace tasync::detail {

thread_local tasync_runtime *tls_runtime = nullptr;


}  // namespace tasync::detail

using namespace tasync::detail;

// ------------------------------------------------------------- switching

bool tasync_runtime::prepare_new(Coroutine *co) {
    Stack s = co->stack ? co->stack : stacks->allocate();
    if (!s) {
        // Cannot run it: it fails with an error instead, which its awaiters
        // receive (C4). It has no stack to carry the error further (S10),
        // so the host is told once per runtime.
        int err = errno;
        if (!warned_stack_failure) {
            warned_stack_failure = true;
            warn("coroutine #" + std::to_string(co->id) + " spawned at " + format_location(co->spawn_loc) +
                 " could not start: cannot allocate a coroutine stack: " + std::strerror(err) +
                 "; it and any further coroutine without a stack fail with that error");
        }
        co->state = Coroutine::State::Running;
        release_error(co->error);
        co->error = make_error(TASYNC_ERROR_SYSTEM, -ENOMEM,
                               "cannot allocate a coroutine stack: " + std::string(std::strerror(err)));
        Coroutine *saved = current;
        current = nullptr;
        complete_coroutine(co);
        co->state = Coroutine::State::Finished;
        current = saved;
        co->stack_released = true;
        co->runtime_ref = false;
        if (--co->refs == 0) co->destroy();
        return false;
    }
    co->stack = s;
    const std::size_t guard = stacks->guard_size();
    annotate_stack_created(co->ann, s.base + guard, s.size - guard);
    co->ctx = make_context(s.top(), s.size - guard, &tasync_runtime::coroutine_main);
    return true;
}

tasync_coroutine *tasync_runtime::pick_next_slow(Coroutine *next) {
    for (;;) {
        if (next == nullptr) {
            if (runq.empty()) {
                // Nothing runnable.
                if (main_waiting_end && main->state == Coroutine::State::Waiting && active == 0 && zombies == 0 &&
                    !has_live_work()) {
                    if (!holders.empty()) {
                        // Errors kept for awaiters nobody will be any more
                        // (S10): the end of the program releases them.
                        release_holds();
                    } else if (!unobserved_futures.empty()) {
                        // Failed futures nobody observed are reported as
                        // coroutines failing unobserved (T2, S10).
                        report_unobserved_futures();
                    } else if (!global_scope->completed && !global_scope->finally_cbs.empty()) {
                        // The global scope's completion callbacks (S12) run
                        // before the end.
                        global_scope->completed = true;
                        run_finally(global_scope->finally_cbs, global_scope, nullptr);
                    } else {
                        // Nothing can happen any more and nobody is active: the end.
                        wake(main->wait, 0);
                    }
                } else if (has_live_work()) {
                    poll(true);
                } else {
                    report_deadlock();
                }
                pass_end = runq.tail();
                continue;
            }
            if (runq.head() == pass_end) {
                // A pass over the runnable coroutines ended: look at the
                // reactor and the timers without blocking (docs/architecture.md).
                if (reactor_busy() || has_posts.load(std::memory_order_acquire)) {
                    poll(false);
                } else if (!timers.empty()) {
                    Coroutine *saved = current;
                    current = nullptr;
                    now_valid = false;
                    run_timers();
                    current = saved;
                }
                pass_end = runq.tail();
            }
            next = runq.pop();
        }
        if (next->state == Coroutine::State::Finished) {
            // Cancelled before it started (rule C7): it was left in the ring.
            if (next->runtime_ref) {
                next->runtime_ref = false;
                if (--next->refs == 0) next->destroy();
            }
            next = nullptr;
            continue;
        }
        if (next->state == Coroutine::State::New && !prepare_new(next)) {
            next = nullptr;
            continue;
        }
        return next;
    }
}

// ------------------------------------------------------------- suspension

int tasync_runtime::suspend_on(Wait &w) {
    Coroutine *co = current;
    w.co = co;
    co->wait = &w;
    if (host.capture_location != nullptr) co->suspend_loc = capture_location();
    if (co->cancel_pending && co->protect_depth == 0 && !w.done &&
        (w.on_cancel == nullptr || w.on_cancel(&w))) {
        // A cancellation requested while the coroutine ran (C8, C10's
        // pending cancellation) interrupts its next suspension at once.
        retain_error(co->cancel_error);
        wake(&w, -ECANCELED, nullptr, co->cancel_error);  // records only: co is running
        co->cancel_pending = false;
    }
    if (!w.done) {
        co->state = Coroutine::State::Waiting;
        switch_away();
    }
    co->wait = nullptr;
    if (w.cleanup != nullptr) w.cleanup(&w);
    deliver_pending_cancel(w);
    return w.code;
}

void tasync_runtime::wake(Wait *w, int code, void *v, void *e) {
    if (w == nullptr || w->done) {
        release_value(v);
        release_error(e);
        return;
    }
    w->done = true;
    w->code = code;
    w->value = v;
    w->error = e;
    Coroutine *co = w->co;
    if (co->state == Coroutine::State::Waiting) {
        co->state = Coroutine::State::Ready;
        make_runnable(co);
    }
}

// ------------------------------------------------------------ liveness

bool tasync_runtime::has_live_work() const noexcept {
    return timers.referenced() > 0 || io_waiters > 0 || signal_waiters > 0 || child_waiters > 0 ||
           jobs_in_flight > 0 || posted_pending.load(std::memory_order_acquire) > 0 ||
           external_refs.load(std::memory_order_acquire) > 0;
}

bool tasync_runtime::reactor_busy() const noexcept {
    return io_waiters > 0 || signal_waiters > 0 || child_waiters > 0 || jobs_in_flight > 0 ||
           !signal_watches.empty();
}

namespace {

// What a coroutine asks the poll stack to do.
struct PollCall {
    tasync_runtime *rt;
    tasync_coroutine *caller;
    bool may_block;
};

}  // namespace

void tasync_runtime::poll(bool may_block) {
    if (!poll_on_own_stack(may_block)) poll_here(may_block);
}

bool tasync_runtime::poll_on_own_stack(bool may_block) {
    Coroutine *co = current;
    // The main flow runs on the thread's own stack, which stays warm
    // anyway; teardown polls outside any coroutine, and a poll sets current
    // to null while it runs (a nested poll runs in place).
    if (co == nullptr || co->is_main || !co->stack || poll_stack_failed) return false;
    if (poll_ctx == nullptr) {
        if (!poll_stack) {
            poll_stack = stacks->allocate();
            if (!poll_stack) {
                poll_stack_failed = true;  // polls run in place: only their pages are at stake
                return false;
            }
            const std::size_t guard = stacks->guard_size();
            annotate_stack_created(poll_ann, poll_stack.base + guard, poll_stack.size - guard);
        }
        poll_ctx = make_context(poll_stack.top(), poll_stack.size - stacks->guard_size(),
                                &tasync_runtime::poll_stack_main);
    }
    PollCall call{this, co, may_block};
    fcontext_t to = poll_ctx;
    // Consumed by the jump: were the poll stack abandoned (a longjmp out of
    // a callback), the next poll starts it afresh.
    poll_ctx = nullptr;
    annotate_switch_begin(co->ann, poll_ann, false);
    transfer_t t = jump(to, &call);
    annotate_switch_end(co->ann, nullptr);
    poll_ctx = t.fctx;
    return true;
}

void tasync_runtime::poll_stack_main(transfer_t t) {
    for (;;) {
        auto *call = static_cast<PollCall *>(t.data);
        tasync_runtime *rt = call->rt;
        annotate_switch_end(rt->poll_ann, nullptr);
        rt->poll_here(call->may_block);
        annotate_switch_begin(rt->poll_ann, call->caller->ann, false);
        t = jump(t.fctx, nullptr);
    }
}

void tasync_runtime::release_poll_stack() noexcept {
    if (!poll_stack) return;
    annotate_stack_destroyed(poll_ann);
    stacks->release(poll_stack);
    poll_stack = {};
    poll_ctx = nullptr;
}

void tasync_runtime::poll_here(bool may_block) {
    // In a forked child, before the timeout and the post queue are read:
    // after_fork() may post.
    const tasync_backend_t *r = reactor();
    note_progress();  // C25
    Coroutine *saved = current;
    current = nullptr;
    std::int64_t timeout = 0;
    std::uint64_t wait_from = 0;
    if (may_block && !has_posts.load(std::memory_order_acquire)) {
        if (!timers.empty() && !destroying) {
            now_valid = false;
            std::uint64_t n = now();
            std::uint64_t top = timers.top_deadline();
            timeout = top > n ? static_cast<std::int64_t>(top - n) : 0;
        } else {
            timeout = -1;
        }
    }
    if (timeout != 0) {
        // About to wait: a good moment to give retired stacks back, and
        // the stacks (and coroutine records) a burst left unused for a
        // whole decay window. While the cache holds more than its minimum,
        // the wait ends in time for the next decay tick, so that an idle
        // process returns a burst's memory.
        stacks->flush_retired();
        now_valid = false;
        const std::uint64_t n = now();
        wait_from = n;
        stacks->decay(n);
        trim_coroutine_cache();
        if (std::uint64_t d = stacks->decay_deadline(); d != 0) {
            const std::int64_t until = d > n ? static_cast<std::int64_t>(d - n) : 0;
            if (timeout < 0 || until < timeout) timeout = until;
        }
        polling.store(true, std::memory_order_seq_cst);
        // Another thread that posts or drops the last external reference
        // wakes the reactor only if it sees `polling`; one that acted before
        // the store is seen here instead (both sides are seq_cst). Without
        // the second check, an unref landing between the liveness check
        // and the store left the runtime asleep with nothing to wake it.
        if (has_posts.load(std::memory_order_seq_cst) ||
            (external_refs.load(std::memory_order_seq_cst) == 0 && !has_live_work()))
            timeout = 0;
    }
    if (timeout == 0 && !timers.empty() && !destroying) {
        // Timers already due fire before the reactor's callbacks: the
        // coroutines they wake run before those the fds about to be
        // reported wake (libuv's order), so a due delay is not queued
        // behind a whole pass of I/O.
        now_valid = false;
        run_timers();
    }
    if (timeout > 0 && timeout < kDeadlineFdBelowNs && !(r->capabilities & TASYNC_CAP_PRECISE_TIMEOUT))
        deadline_fd_arm(this, wait_from + static_cast<std::uint64_t>(timeout), timeout);
    int rc = r->loop_run(loop, timeout);
    polling.store(false, std::memory_order_relaxed);
    note_progress();
    if (rc < 0 && rc != -EINTR) {
        warn(std::string("backend loop_run failed: ") + tasync_strerror(rc));
    }
    now_valid = false;
    // While the runtime is destroyed (it polls only to take back offloaded
    // work), no timer fires: a callback or a scope's dispose timer would run
    // host code against a runtime that is going away.
    if (!timers.empty() && !destroying) run_timers();
    if (has_posts.load(std::memory_order_acquire)) run_posted();
    current = saved;
}

void tasync_runtime::run_timers() {
    std::uint64_t n = now();
    std::uint64_t mark = timers.mark();
    while (TimerEntry *e = timers.pop_expired(n, mark)) e->fire(e);
}

// ------------------------------------------------------------ cross-thread

int tasync_runtime::post(void (*cb)(void *), void *data) {
    xthread_calls.fetch_add(1, std::memory_order_seq_cst);
    {
        std::lock_guard<std::mutex> lock(post_mu);
        posted.push_back(Posted{cb, data});
        posted_pending.fetch_add(1, std::memory_order_acq_rel);
    }
    has_posts.store(true, std::memory_order_seq_cst);
    int rc = 0;
    if (polling.load(std::memory_order_seq_cst)) rc = ops->loop_wakeup(loop);
    // The last touch of the runtime: from here on, it may be gone.
    xthread_calls.fetch_sub(1, std::memory_order_release);
    return rc;
}

void tasync_runtime::run_posted() {
    {
        std::lock_guard<std::mutex> lock(post_mu);
        posted_swap.swap(posted);
        has_posts.store(false, std::memory_order_relaxed);
    }
    for (const Posted &p : posted_swap) {
        p.cb(p.data);
        posted_pending.fetch_sub(1, std::memory_order_acq_rel);
    }
    posted_swap.clear();
}
