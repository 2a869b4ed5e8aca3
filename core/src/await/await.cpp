// Awaiting: yield, park/resume, await with a cancellation awaitable (C4-C6),
// timeouts and delays (C21). Futures are in future.cpp.
#include <cerrno>
#include <string>
#include <vector>

#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_deadline.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

struct Timeout final : tasync_awaitable {
    explicit Timeout(tasync_runtime *r) : tasync_awaitable(AwaitableKind::Timeout, r) {
        timer.ref = false;
        timer.fire = &Timeout::fired;
        timer.owner = this;
    }
    TimerEntry timer;

    static void fired(TimerEntry *e) { static_cast<Timeout *>(e->owner)->complete(nullptr, nullptr); }
    // A timeout keeps the runtime alive only while someone awaits it.
    void waiters_changed() override {
        if (rt != nullptr) rt->timers.set_ref(&timer, !waiters.empty());
    }
    void detach() override {
        if (rt != nullptr) rt->timers.disarm(&timer);
        tasync_awaitable::detach();
    }
    void destroy() override {
        if (rt != nullptr) rt->timers.disarm(&timer);
        tasync_awaitable::destroy();
    }
    // tasync_timeout_cancel: the deadline is gone. Waits that use it as
    // their cancellation go on without one; its awaiters get the error.
    void cancel(void *error) {
        rt->timers.disarm(&timer);
        for (Waiter *w = waiters.front(); w != nullptr;) {
            Waiter *next = waiters.next(w);
            if (w->notify == nullptr && w->role == 1) remove_waiter(w);  // a CancelLink
            w = next;
        }
        complete(nullptr, error);
    }
};

struct AwaitWait : Wait {
    Waiter main_waiter;
    tasync_awaitable *what = nullptr;  // referenced while waiting
    CancelLink cancel;
    DeadlineLink until;
};

void await_cleanup(Wait *w) {
    auto *aw = static_cast<AwaitWait *>(w);
    if (aw->what != nullptr) {
        if (aw->main_waiter.link.linked()) aw->what->remove_waiter(&aw->main_waiter);
        tasync_awaitable *p = aw->what;
        aw->what = nullptr;
        if (--p->refs == 0) p->destroy();
    }
    aw->cancel.detach();
    aw->until.disarm();
}

// tasync_await_any: one waiter per awaitable; the first to complete wins.
struct AnyWait : Wait {
    struct Slot {
        Waiter waiter;
        tasync_awaitable *what = nullptr;
    };
    std::vector<Slot> slots;
    CancelLink cancel;
    long winner = -1;
};

void any_fired(Waiter *w, tasync_awaitable *source) {
    auto *aw = static_cast<AnyWait *>(static_cast<Wait *>(w->wait));
    if (aw->winner < 0 && !aw->done) {
        // The one tasync_await_any returns: its caller reads the outcome.
        aw->winner = w->role;
        if (source->error != nullptr) observe(source);
    }
    aw->co->rt->wake(aw, 0);
}

void any_cleanup(Wait *w) {
    auto *aw = static_cast<AnyWait *>(w);
    for (AnyWait::Slot &slot : aw->slots) {
        if (slot.what == nullptr) continue;
        if (slot.waiter.link.linked()) slot.what->remove_waiter(&slot.waiter);
        tasync_awaitable *p = slot.what;
        slot.what = nullptr;
        if (--p->refs == 0) p->destroy();
    }
    // The vector lives on the waiting coroutine's stack, which teardown
    // drops without unwinding it: give its storage back here.
    std::vector<AnyWait::Slot>().swap(aw->slots);
    aw->cancel.detach();
}

struct DelayWait : Wait {
    TimerEntry timer;
    tasync_runtime *rt = nullptr;
    CancelLink cancel;
};

void delay_fired(TimerEntry *e) {
    auto *dw = static_cast<DelayWait *>(e->owner);
    dw->rt->wake(dw, 0);
}

void delay_cleanup(Wait *w) {
    auto *dw = static_cast<DelayWait *>(w);
    dw->rt->timers.disarm(&dw->timer);
    dw->cancel.detach();
}

// Rule C6, and the checks every await shares.
int check_awaitable(tasync_runtime *rt, tasync_awaitable *what, void **out_error) {
    if (what->rt != rt) return what->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    if (what == rt->current) return self_await(rt, out_error);
    return 0;
}

// tasync_await and tasync_await_until (deadline 0: none).
int await_one(tasync_runtime *rt, tasync_awaitable *what, std::uint64_t deadline, tasync_awaitable *cancellation,
              void **out_value, void **out_error) {
    if (out_value != nullptr) *out_value = nullptr;
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (what == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (cancellation != nullptr && cancellation->rt != rt)
        return cancellation->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    if (int rc = check_awaitable(rt, what, out_error); rc != 0) return rc;
    if (outcome_ready(what, rt->current)) {
        if (what->error != nullptr) observe(what);
        rt->retain_value(what->value);
        rt->retain_error(what->error);
        if (out_value != nullptr) *out_value = what->value;
        else rt->release_value(what->value);
        if (out_error != nullptr) *out_error = what->error;
        else rt->release_error(what->error);
        return what->error != nullptr ? TASYNC_EFAILED : 0;
    }
    if (deadline_passed(rt, deadline)) return -ETIMEDOUT;
    AwaitWait w;
    w.kind = WaitKind::Await;
    w.target = what;
    w.count = 1;
    w.cleanup = &await_cleanup;
    if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
    // The awaited object must outlive the wait even if the caller drops it.
    ++what->refs;
    w.what = what;
    w.main_waiter.wait = &w;
    w.main_waiter.role = 0;
    w.main_waiter.handles_error = true;
    what->add_waiter(&w.main_waiter);
    w.until.arm(rt, &w, deadline);
    rt->suspend_on(w);  // its cleanup drops the references taken above
    return finish_wait(rt, w, out_value, out_error);
}

}  // namespace

namespace tasync::detail {

void observe(tasync_awaitable *aw) {
    if (aw == nullptr || aw->observed) return;
    aw->observed = true;
    future_observed(aw);  // a failure nobody observed is not reported (T2)
    if (aw->kind != AwaitableKind::Coroutine || aw->rt == nullptr) return;
    auto *co = static_cast<tasync_coroutine *>(aw);
    if (co->holding) aw->rt->wake(co->wait, 0);  // it finishes without escalating
}

bool outcome_ready(const tasync_awaitable *aw, const tasync_coroutine *caller) {
    if (aw->completed) return true;
    // A finally handler reads its coroutine's outcome while the coroutine's
    // awaiters wait for the handler (C11): waiting would deadlock.
    return aw->kind == AwaitableKind::Coroutine && static_cast<const tasync_coroutine *>(aw)->done &&
           caller != nullptr && caller->finally_of == aw;
}

}  // namespace tasync::detail

extern "C" {

TASYNC_API int tasync_yield(tasync_runtime_t *rt, void **out_error) {
    // The hottest path of the scheduler: no Wait record, just a trip through
    // the run queue. A cancellation is delivered here (rule C7) if one is
    // pending before or arrives during the yield.
    if (rt == nullptr) rt = tls_runtime;
    tasync_coroutine *co = rt != nullptr ? rt->current : nullptr;
    if (co == nullptr) return not_in_coroutine(rt, out_error);
    if (out_error != nullptr) *out_error = nullptr;
    if (!co->cancel_pending || co->protect_depth > 0) {
        if (rt->host.capture_location != nullptr) co->suspend_loc = rt->capture_location();
        co->state = tasync_coroutine::State::Ready;
        rt->enqueue(co);
        rt->switch_away();
        if (!co->cancel_pending || co->protect_depth > 0) return 0;
    }
    co->cancel_pending = false;
    if (out_error != nullptr) {
        rt->retain_error(co->cancel_error);
        *out_error = co->cancel_error;
    }
    return -ECANCELED;
}

TASYNC_API int tasync_suspend(tasync_runtime_t *rt, void **out_value, void **out_error) {
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    Wait w;
    w.kind = WaitKind::Park;
    rt->suspend_on(w);
    return finish_wait(rt, w, out_value, out_error);
}

static int resume_with(tasync_coroutine_t *co, int code, void *value, void *error) {
    tasync_runtime *rt = co != nullptr ? co->rt : nullptr;
    if (rt == nullptr || co->state != tasync_coroutine::State::Waiting || co->wait == nullptr ||
        co->wait->kind != WaitKind::Park)
        return TASYNC_EBAD_STATE;
    rt->retain_value(value);
    rt->retain_error(error);
    rt->wake(co->wait, code, value, error);
    return 0;
}

TASYNC_API int tasync_resume(tasync_coroutine_t *co, void *value) { return resume_with(co, 0, value, nullptr); }

TASYNC_API int tasync_resume_error(tasync_coroutine_t *co, void *error) {
    if (error == nullptr) return -EINVAL;
    return resume_with(co, TASYNC_EFAILED, nullptr, error);
}

TASYNC_API void tasync_awaitable_retain(tasync_awaitable_t *aw) {
    if (aw == nullptr) return;
    if (aw->kind == AwaitableKind::Coroutine) {
        tasync_coroutine_retain(static_cast<tasync_coroutine *>(aw));  // a handle (S10)
        return;
    }
    ++aw->refs;
}

TASYNC_API void tasync_awaitable_release(tasync_awaitable_t *aw) {
    if (aw == nullptr) return;
    if (aw->kind == AwaitableKind::Coroutine) {
        tasync_coroutine_release(static_cast<tasync_coroutine *>(aw));
        return;
    }
    if (--aw->refs == 0) aw->destroy();
}

TASYNC_API int tasync_awaitable_is_completed(const tasync_awaitable_t *aw) {
    return aw != nullptr && aw->completed ? 1 : 0;
}

TASYNC_API int tasync_await(tasync_runtime_t *rt, tasync_awaitable_t *what, tasync_awaitable_t *cancellation,
                            void **out_value, void **out_error) {
    return await_one(rt, what, 0, cancellation, out_value, out_error);
}

TASYNC_API int tasync_await_until(tasync_runtime_t *rt, tasync_awaitable_t *what, uint64_t deadline_ns,
                                  tasync_awaitable_t *cancellation, void **out_value, void **out_error) {
    return await_one(rt, what, deadline_ns, cancellation, out_value, out_error);
}

TASYNC_API int tasync_await_any(tasync_runtime_t *rt, tasync_awaitable_t *const *what, size_t n,
                                tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (what == nullptr || n == 0) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (cancellation != nullptr && cancellation->rt != rt)
        return cancellation->rt == nullptr ? TASYNC_EBAD_STATE : TASYNC_EWRONG_THREAD;
    for (size_t i = 0; i < n; ++i) {
        if (what[i] == nullptr) return -EINVAL;
        if (int rc = check_awaitable(rt, what[i], out_error); rc != 0) return rc;
    }
    for (size_t i = 0; i < n; ++i) {
        if (outcome_ready(what[i], rt->current)) {
            if (what[i]->error != nullptr) observe(what[i]);  // the caller reads its outcome
            return static_cast<int>(i);
        }
    }
    AnyWait w;
    w.kind = WaitKind::Await;
    w.target = what[0];
    w.count = static_cast<std::uint32_t>(n);
    w.cleanup = &any_cleanup;
    if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
    w.slots.resize(n);
    for (size_t i = 0; i < n; ++i) {
        AnyWait::Slot &slot = w.slots[i];
        slot.what = what[i];
        ++what[i]->refs;
        slot.waiter.wait = &w;
        slot.waiter.role = static_cast<int>(i);
        slot.waiter.notify = &any_fired;
        slot.waiter.handles_error = true;
        what[i]->add_waiter(&slot.waiter);
    }
    rt->suspend_on(w);
    int rc = finish_wait(rt, w, nullptr, out_error);
    return rc == 0 ? static_cast<int>(w.winner) : rc;
}

TASYNC_API int tasync_awaitable_outcome(const tasync_awaitable_t *aw, void **value, void **error) {
    if (aw == nullptr) return -EINVAL;
    if (!aw->completed && !(aw->kind == AwaitableKind::Coroutine && static_cast<const tasync_coroutine *>(aw)->done))
        return TASYNC_EBAD_STATE;
    if (value != nullptr) *value = aw->value;
    if (error != nullptr) *error = aw->error;
    return aw->error != nullptr ? TASYNC_EFAILED : 0;
}

TASYNC_API void tasync_awaitable_observe(tasync_awaitable_t *aw) { observe(aw); }

TASYNC_API int tasync_timeout_create(tasync_runtime_t *rt, uint64_t timeout_ns, tasync_awaitable_t **out) {
    rt = running_runtime(rt);
    if (rt == nullptr || out == nullptr) return -EINVAL;
    auto *t = new Timeout(rt);
    rt->all.push_back(t);
    rt->timers.arm(&t->timer, rt->fresh_now() + timeout_ns);
    *out = t;
    return 0;
}

TASYNC_API int tasync_timeout_cancel(tasync_awaitable_t *timeout, void *error) {
    if (timeout == nullptr || timeout->kind != AwaitableKind::Timeout) return -EINVAL;
    tasync_runtime *rt = timeout->rt;
    if (rt == nullptr || timeout->completed) return 0;  // fired or cancelled: nothing (as C7)
    if (error != nullptr) {
        rt->retain_error(error);
    } else {
        tasync_location_t loc = rt->capture_location();
        error = rt->make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                               "Timeout cancelled" + tasync_runtime::at(loc));
    }
    static_cast<Timeout *>(timeout)->cancel(error);
    return 0;
}

TASYNC_API int tasync_delay(tasync_runtime_t *rt, uint64_t timeout_ns, tasync_awaitable_t *cancellation,
                            void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    DelayWait w;
    w.kind = WaitKind::Delay;
    w.rt = rt;
    w.cleanup = &delay_cleanup;
    w.timer.fire = &delay_fired;
    w.timer.owner = &w;
    w.deadline = rt->fresh_now() + timeout_ns;
    if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
    rt->timers.arm(&w.timer, w.deadline);
    rt->suspend_on(w);
    return finish_wait(rt, w, nullptr, out_error);
}

}  // extern "C"

