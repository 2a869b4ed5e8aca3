// Cancelling a coroutine (rules C4-C10, C20): the request, its delivery at
// the next suspension point (or at once when it is suspended), pending
// cancellations and the errors a cancelled wait ends with. Helpers for the
// cancellation awaitable of a wait are in cancel.hpp; a scope's
// cancellation is scope_cancel (scope/scope.cpp).
#include "tasync/core/runtime.hpp"

#include <cerrno>

using namespace tasync::detail;

void tasync_runtime::deliver_pending_cancel(Wait &w) {
    Coroutine *co = w.co;
    if (w.code == -ECANCELED && w.error == nullptr && co->cancel_pending) {
        // A wait a backend ended with a bare -ECANCELED (offloaded work it
        // took back for the pending cancellation, forced through a protect
        // section too) ends with the coroutine's own cancellation (C7).
        w.error = co->cancel_error;
        retain_error(w.error);
        co->cancel_pending = false;
        return;
    }
    if (!co->cancel_pending || co->protect_depth > 0) return;
    if (w.code == -ECANCELED) {
        co->cancel_pending = false;
        return;
    }
    if (w.keeps_result && w.code >= 0) return;  // delivered at the next suspension
    release_value(w.value);
    release_error(w.error);
    w.value = nullptr;
    w.code = -ECANCELED;
    w.error = co->cancel_error;
    retain_error(w.error);
    co->cancel_pending = false;
}

void tasync_runtime::fill_error(Wait &w) {
    if (w.code >= 0 || w.error != nullptr || w.timed_out) return;
    if (w.code == TASYNC_EAWAIT_CANCELLED) {
        w.error = make_error(TASYNC_ERROR_AWAIT_CANCELLED, w.code, "Await was cancelled by its cancellation awaitable");
    } else if (w.code == -ECANCELED) {
        w.error = make_error(TASYNC_ERROR_CANCELLATION, w.code, "cancelled");
    } else {
        w.error = make_error(TASYNC_ERROR_SYSTEM, w.code, tasync_strerror(w.code));
    }
}

int tasync_runtime::cancel(Coroutine *co, void *err) {
    if (co->rt == nullptr || co->state == Coroutine::State::Finished) return 0;
    if (co->done && !co->escalating) return 0;
    if (co->is_main && main_waiting_end) return 0;
    if (co->cancel_requested) return 0;  // the first cancellation wins
    if (co->finishing) {
        // Its outcome is final (S10 runs its handlers): a cancellation only
        // ends the wait a handler is in.
        if (co->state == Coroutine::State::Waiting && co->wait != nullptr && co->protect_depth == 0 &&
            (co->wait->on_cancel == nullptr || co->wait->on_cancel(co->wait))) {
            void *e = err != nullptr ? err : make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, "cancelled");
            if (err != nullptr) retain_error(e);
            wake(co->wait, -ECANCELED, nullptr, e);
        }
        return 0;
    }
    if (err != nullptr) {
        retain_error(err);
    } else {
        tasync_location_t loc = capture_location();
        err = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                         loc.file != nullptr ? "cancelled at " + format_location(loc) : std::string("cancelled"));
    }
    co->cancel_requested = true;
    co->cancel_error = err;
    switch (co->state) {
        case Coroutine::State::New: {
            if (co->protect_depth > 0) {
                // A finally handler (C11): it starts anyway, the cancellation held back.
                co->cancel_pending = true;
                return 0;
            }
            // Rule C7: never starts. It stays in the run queue, which skips
            // it (and drops the runtime's reference) when it comes up; a
            // coroutine a group held back is in no queue.
            ++co->refs;
            co->state = Coroutine::State::Running;
            complete_coroutine(co);
            co->state = Coroutine::State::Finished;
            co->stack_released = true;
            stacks->release(co->stack);  // taken at spawn under an address-space limit
            co->stack = {};
            if (co->held) {
                co->held = false;
                co->runtime_ref = false;
                --co->refs;
            }
            if (--co->refs == 0) co->destroy();
            return 0;
        }
        case Coroutine::State::Running:
        case Coroutine::State::Ready:
            co->cancel_pending = true;
            return 0;
        case Coroutine::State::Waiting: {
            Wait *w = co->wait;
            if (co->protect_depth > 0 || (w->on_cancel != nullptr && !w->on_cancel(w))) {
                co->cancel_pending = true;
                return 0;
            }
            retain_error(err);
            wake(w, -ECANCELED, nullptr, err);
            return 0;
        }
        case Coroutine::State::Finished: return 0;
    }
    return 0;
}

// Rule C18: a blocking call whose wait co's cancellation ended (-ECANCELED
// with error, the cancellation) fails the way a failed call is documented
// to, and the cancellation is made pending again so that co's next
// suspension point delivers it: it is never lost. A coroutine that already
// failed a call for this same cancellation and went on ignored it: then the
// call raises it now, so that a loop of failing calls ends. Returns true in
// that case (the caller's reference of error is the one to raise); false
// when the call fails quietly (co keeps the reference).
bool tasync_runtime::cancelled_call_raises(Coroutine *co, void *error) {
    if (co->soft_cancel == error) {
        release_error(co->soft_cancel);
        co->soft_cancel = nullptr;
        return true;
    }
    if (co->cancel_requested && !co->done && !co->completed) co->cancel_pending = true;
    release_error(co->soft_cancel);
    co->soft_cancel = error;
    return false;
}
