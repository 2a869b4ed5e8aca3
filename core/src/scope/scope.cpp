// The scope tree (docs/rules.md): rules S1-S15, protect sections (C20) and
// completion callbacks (C11, S12). See api/include/tasync/scope.h for the
// contract; this file is its implementation.
//
// Counting: every scope counts its own active coroutines and zombies, and
// the same over its subtree (sub_active, sub_all), updated incrementally up
// the parent chain when a coroutine is spawned, becomes a zombie or
// finishes. sub_active reaching zero completes await_completion waiters;
// sub_all reaching zero completes await_after_cancellation waiters and, for
// a closed scope, the scope itself (its completion callbacks run).
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

void dispose_timer_fired(TimerEntry *e) {
    auto *s = static_cast<tasync_scope *>(e->owner);
    tasync_runtime *rt = s->rt;
    // The armed timer held a reference to the scope (see scope_dispose).
    std::string msg = "Scope disposal timeout expired; cancelling the coroutines of the scope disposed" +
                      tasync_runtime::at(s->disposed_at);
    void *err = rt->make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, msg);
    rt->scope_cancel(s, err, false);
    rt->release_error(err);
    rt->scope_release(s);
}

// Disarms the dispose timer and drops the reference it held.
void disarm_dispose_timer(tasync_runtime *rt, tasync_scope *s) {
    if (!s->dispose_timer.armed()) return;
    rt->timers.disarm(&s->dispose_timer);
    rt->scope_release(s);
}

// How a warning names a disposed scope: where it was disposed; when that
// was not in user code (the host released it), where it was created.
std::string disposed_scope(const tasync_scope *s) {
    if (s->disposed_at.file != nullptr) return "Scope disposed" + tasync_runtime::at(s->disposed_at);
    if (s->created_at.file != nullptr) return "Scope created" + tasync_runtime::at(s->created_at) + ", disposed when released";
    return "Scope";
}

// The location a warning about s is reported at when no user code runs.
const tasync_location_t &scope_location(const tasync_scope *s) {
    return s->disposed_at.file != nullptr ? s->disposed_at : s->created_at;
}

bool in_subtree(const tasync_scope *s, const tasync_scope *root) {
    for (const tasync_scope *p = s; p != nullptr; p = p->parent) {
        if (p == root) return true;
    }
    return false;
}

// The scope an error moves to when it leaves s (S10): the parent, or the
// global scope for root scopes.
tasync_scope *next_level(tasync_runtime *rt, tasync_scope *s) { return s->parent != nullptr ? s->parent : rt->global_scope; }

// Borrowed pointers to a list's members, each retained, so that the list
// may change while they are processed.
std::vector<tasync_coroutine *> retained_coroutines(tasync_scope *s) {
    std::vector<tasync_coroutine *> v;
    v.reserve(s->coroutines.size());
    s->coroutines.for_each([&](tasync_coroutine *co) {
        ++co->refs;
        v.push_back(co);
    });
    return v;
}

std::vector<tasync_scope *> retained_children(tasync_scope *s) {
    std::vector<tasync_scope *> v;
    v.reserve(s->children.size());
    s->children.for_each([&](tasync_scope *c) {
        ++c->refs;
        v.push_back(c);
    });
    return v;
}

void release_coroutine(tasync_coroutine *co) {
    if (--co->refs == 0) co->destroy();
}

// A coroutine in tasync_scope_await_completion / _after_cancellation.
struct ScopeWait : Wait {
    tasync_runtime *rt = nullptr;
    ScopeWaiter node;
    CancelLink cancel;
    tasync_scope *held = nullptr;  // referenced while waiting
};

}  // namespace

// ================================================================ lifetime

tasync_scope *tasync_runtime::new_scope(tasync_scope *parent) {
    auto *s = new tasync_scope;
    s->rt = this;
    s->id = parent == nullptr && global_scope == nullptr ? 0 : next_scope_id++;
    s->dispose_timer.ref = false;  // zombies do not keep the program alive (S9)
    s->dispose_timer.fire = &dispose_timer_fired;
    s->dispose_timer.owner = s;
    if (parent != nullptr) {
        s->parent = parent;
        ++parent->refs;
        parent->children.push_back(s);
        s->not_safely = parent->not_safely;
    }
    scopes.push_back(s);
    return s;
}

// A scope without references has no coroutine and no child (both hold one).
void tasync_runtime::scope_free(tasync_scope *s) {
    tasync_scope *parent = s->parent;
    detach_scope(s);
    delete s;
    if (parent != nullptr) scope_release(parent);
}

// Releases everything the scope holds of the host's, and unlinks it.
void tasync_runtime::detach_scope(tasync_scope *s) {
    if (s->rt == nullptr) return;
    timers.disarm(&s->dispose_timer);
    release_error(s->cancel_error);
    release_error(s->failure);
    s->cancel_error = s->failure = nullptr;
    release_undelivered(s, false);
    s->exception_handler.reset();
    s->child_handler.reset();
    std::vector<tasync_spawn_options_t> cbs;
    cbs.swap(s->finally_cbs);
    for (const tasync_spawn_options_t &cb : cbs) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
    }
    if (s->context) {
        context_clear(s->context.get());
        s->context.reset();
    }
    scopes.remove(s);
    if (s->parent != nullptr) s->parent->children.remove(s);
    while (ScopeWaiter *w = s->waiters.pop_front()) (void)w;
    s->rt = nullptr;
}

// Runtime teardown, step 1: members stop holding references on scopes,
// so that what remains afterwards is exactly the host's references.
void tasync_runtime::teardown_scopes_begin() {
    // Coroutines that left their scope but keep it for an escalation to come
    // (hold_error) hold a reference too.
    all.for_each([&](tasync_awaitable *a) {
        if (a->kind != AwaitableKind::Coroutine) return;
        auto *co = static_cast<Coroutine *>(a);
        // What core frames on its stack hold (S10's error flow around a
        // handler that suspended): the stack is dropped unwound.
        for (tasync::detail::StackHold *h = co->stack_holds; h != nullptr; h = h->next) {
            release_error(*h->error);
            if (*h->scope != nullptr) --(*h->scope)->refs;
            if (h->owner != nullptr) --h->owner->refs;
        }
        co->stack_holds = nullptr;
        if (co->scope != nullptr && !co->scope_link.linked()) {
            --co->scope->refs;
            co->scope = nullptr;
        }
        if (co->charged != nullptr) {
            --co->charged->refs;
            co->charged = nullptr;
        }
    });
    scopes.for_each([&](tasync_scope *s) {
        while (Coroutine *co = s->coroutines.pop_front()) {
            co->scope = nullptr;
            --s->refs;
        }
        while (tasync_scope *c = s->children.pop_front()) {
            c->parent = nullptr;
            --s->refs;
        }
        while (ScopeWaiter *w = s->waiters.pop_front()) {
            static_cast<ScopeWait *>(w->wait)->held = nullptr;
            --s->refs;
        }
        if (s->dispose_timer.armed()) {
            timers.disarm(&s->dispose_timer);
            --s->refs;
        }
        s->active = s->zombies = s->sub_active = s->sub_all = 0;
    });
}

// Step 2, after every coroutine is gone: release what scopes hold of the
// host's; scopes the host still references survive, detached.
void tasync_runtime::teardown_scopes_end() {
    std::vector<tasync_scope *> all;
    scopes.for_each([&](tasync_scope *s) { all.push_back(s); });
    for (tasync_scope *s : all) {
        detach_scope(s);
        if (s != global_scope && s->refs == 0) delete s;
    }
}

// ============================================================ membership

void tasync_runtime::scope_add(tasync_scope *s, Coroutine *co) {
    co->scope = s;
    ++s->refs;
    s->coroutines.push_back(co);
    ++s->active;
    for (tasync_scope *p = s; p != nullptr; p = p->parent) {
        ++p->sub_active;
        ++p->sub_all;
    }
}

// The slow path of scope_coroutine_finished (runtime.hpp).
void tasync_runtime::scope_notify(tasync_scope *s, bool no_active, bool none) {
    if (none && s->closed && !s->completed && !s->finally_cbs.empty()) {
        // The scope completes. Its finally handlers are charged to it (C11,
        // S12), so whoever waits for it resumes once they have run.
        scope_check_completed(s);
        if (s->sub_all != 0) return;
    }
    if (no_active) scope_wake_completion(s, 0, nullptr);
    if (none) {
        s->waiters.for_each([&](ScopeWaiter *w) {
            if (w->role == ScopeWaiter::AfterCancel) wake(w->wait, 0);
        });
        scope_check_completed(s);
    }
}

void tasync_runtime::zombify(Coroutine *co) {
    tasync_scope *s = co->scope;
    if (co->zombie || co->done || s == nullptr || co->finishing) return;
    co->zombie = true;
    --s->active;
    ++s->zombies;
    --active;
    ++zombies;
    for (tasync_scope *p = s; p != nullptr; p = p->parent) {
        if (--p->sub_active == 0) scope_wake_completion(p, 0, nullptr);
    }
    maybe_start_zombie_phase();
}

// Wakes the coroutines in await_completion on s with code and error
// (borrowed; each gets its own reference).
void tasync_runtime::scope_wake_completion(tasync_scope *s, int code, void *error) {
    s->waiters.for_each([&](ScopeWaiter *w) {
        if (w->role != ScopeWaiter::Completion) return;
        retain_error(error);
        wake(w->wait, code, nullptr, error);
    });
}

void tasync_runtime::scope_check_completed(tasync_scope *s) {
    if (!s->closed || s->sub_all != 0 || s->completed) return;
    s->completed = true;
    ++s->refs;
    disarm_dispose_timer(this, s);
    run_finally(s->finally_cbs, s, nullptr);
    scope_release(s);
}

void tasync_runtime::run_finally(std::vector<tasync_spawn_options_t> &cbs, tasync_scope *sc, Coroutine *owner) {
    std::vector<tasync_spawn_options_t> todo;
    todo.swap(cbs);
    for (const tasync_spawn_options_t &cb : todo) spawn_handler(cb, sc, owner);
}

// ========================================================== cancel, dispose

void tasync_runtime::scope_cancel(tasync_scope *s, void *error, bool explicit_call) {
    if (s->rt == nullptr) return;
    if (s->cancelled) {
        if (explicit_call && error != nullptr) {
            warn("The Scope" + (s->created_at.file != nullptr ? " created" + at(s->created_at) : std::string()) +
                     " is already cancelled; this cancellation is ignored",
                 s->created_at);
        }
        return;
    }
    s->cancelled = true;
    s->closed = true;
    if (error != nullptr) {
        retain_error(error);
    } else {
        tasync_location_t loc = capture_location();
        error = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                           loc.file != nullptr ? "cancelled at " + format_location(loc) : std::string("cancelled"));
    }
    s->cancel_error = error;
    ++s->refs;
    // Children before parents (S6).
    for (tasync_scope *c : retained_children(s)) {
        scope_cancel(c, s->cancel_error, false);
        scope_release(c);
    }
    for (Coroutine *co : retained_coroutines(s)) {
        cancel(co, s->cancel_error);
        release_coroutine(co);
    }
    scope_wake_completion(s, TASYNC_EFAILED, s->failure != nullptr ? s->failure : s->cancel_error);
    disarm_dispose_timer(this, s);
    scope_check_completed(s);
    scope_release(s);
}

void tasync_runtime::scope_dispose(tasync_scope *s, int strategy, std::uint64_t timeout_ns, bool quiet) {
    if (s->rt == nullptr) return;
    // The owner lets go of the scope: errors nobody received move up (S10).
    release_undelivered(s, true);
    if (s->disposed || s->cancelled) return;
    if (strategy == TASYNC_DISPOSE_ON_RELEASE) {
        if (s->parent == nullptr && !s->is_global && !s->awaited && s->sub_active > 0) {
            // S15: a root scope dropped with work nobody took responsibility for.
            warn((s->created_at.file != nullptr ? "Scope created" + at(s->created_at) : std::string("A Scope")) +
                     " was destroyed with " + std::to_string(s->sub_active) +
                     " active coroutine(s) that were never awaited or disposed",
                 s->created_at);
        }
        strategy = s->not_safely ? TASYNC_DISPOSE_CANCEL : TASYNC_DISPOSE_SAFELY;
    }
    s->disposed = true;
    s->closed = true;
    s->disposed_at = capture_location();
    ++s->refs;
    for (tasync_scope *c : retained_children(s)) {
        scope_dispose(c, strategy, timeout_ns, quiet);
        scope_release(c);
    }
    const std::string where = disposed_scope(s);
    if (strategy == TASYNC_DISPOSE_CANCEL) {
        std::vector<Coroutine *> cos = retained_coroutines(s);
        for (Coroutine *co : cos) {
            if (quiet) break;
            warn("Coroutine" + (co->spawn_loc.file != nullptr ? " spawned" + at(co->spawn_loc) : std::string()) +
                     " is cancelled by the " + where,
                 scope_location(s));
        }
        for (Coroutine *co : cos) release_coroutine(co);
        void *err = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED, "Scope disposed at " + where);
        scope_cancel(s, err, false);
        release_error(err);
    } else {
        for (Coroutine *co : retained_coroutines(s)) {
            if (!co->zombie && !co->done) {
                if (!quiet)
                    warn("Coroutine is zombie" + at(co->spawn_loc) + " in " + where, scope_location(s));
                zombify(co);
            }
            release_coroutine(co);
        }
        if (strategy == TASYNC_DISPOSE_AFTER_TIMEOUT && s->sub_all > 0) {
            ++s->refs;  // held while the timer is armed
            timers.arm(&s->dispose_timer, now() + timeout_ns);
        }
    }
    scope_check_completed(s);
    scope_release(s);
}

// ============================================================== errors (S10)

// Hands error to the coroutines in await_after_cancellation on s that have
// an error handler. True when at least one took it.
bool tasync_runtime::deliver_to_after_cancel(tasync_scope *s, void *error) {
    bool taken = false;
    s->waiters.for_each([&](ScopeWaiter *w) {
        if (w->role != ScopeWaiter::AfterCancel || w->handler == nullptr) return;
        retain_error(error);
        w->errors.push_back(error);
        wake(w->wait, 0);
        taken = true;
    });
    return taken;
}

// Rule S10 from scope `from` upwards, for an error co ended with (co may
// be NULL when it is gone). Runs on the calling coroutine's stack:
// handlers may suspend.
void tasync_runtime::propagate_error(Coroutine *co, tasync_scope *from, void *error) {
    retain_error(error);
    void *e = error;
    tasync_scope *s = from;
    ++s->refs;
    // A handler that suspends may never resume (the runtime is destroyed
    // meanwhile, dropping this stack unwound): the references to e, s and
    // the handler's owner are then released by the teardown
    // (teardown_scopes_begin).
    tasync_coroutine *runner = current;
    tasync::detail::StackHold held;
    held.error = &e;
    held.scope = &s;
    if (runner != nullptr) {
        held.next = runner->stack_holds;
        runner->stack_holds = &held;
    }
    // Calls one handler; true when it handled the error. On a new error,
    // e becomes that error.
    auto call = [&](HandlerSlot &slot, tasync_scope *owner) {
        void *raised = nullptr;
        ++owner->refs;
        held.owner = owner;
        int rc = slot.fn(slot.data, owner, co, e, &raised);
        held.owner = nullptr;
        scope_release(owner);
        if (rc == 0) {
            release_error(raised);
            return true;
        }
        if (raised != nullptr) {
            release_error(e);
            e = raised;
        }
        return false;
    };
    auto move_to = [&](tasync_scope *next) {
        ++next->refs;
        scope_release(s);
        s = next;
    };
    for (;;) {
        if (s->rt == nullptr) break;  // the runtime is going away
        if (deliver_to_after_cancel(s, e)) break;
        if (s->is_global) {
            // The end of the road (C15): graceful shutdown, and the host
            // reports the error when the program ends.
            start_shutdown(e, true);
            break;
        }
        if (s->exception_handler.fn != nullptr) {
            if (call(s->exception_handler, s)) break;
            move_to(next_level(this, s));
            continue;
        }
        tasync_scope *p = s->parent;
        if (p != nullptr && p->child_handler.fn != nullptr) {
            if (call(p->child_handler, p)) break;
            move_to(next_level(this, p));
            continue;
        }
        // Nobody handles it: the scope fails (it is cancelled), and its
        // responsibility points, the coroutines in await_completion and
        // those in await_after_cancellation without an error handler,
        // receive the error. Waiters already woken by an earlier
        // cancellation or error get nothing more.
        bool responsible = false;
        s->waiters.for_each([&](ScopeWaiter *w) {
            const bool point = w->role == ScopeWaiter::Completion || w->handler == nullptr;
            responsible |= point && !w->wait->done;
        });
        if (!s->failed) {
            s->failed = true;
            retain_error(e);
            s->failure = e;
        }
        if (!s->cancelled) {
            void *cancel_err = make_error(TASYNC_ERROR_CANCELLATION, -ECANCELED,
                                          "Scope cancelled by an unhandled error: " + describe_error(e));
            scope_cancel(s, cancel_err, false);  // wakes the waiters with the failure
            release_error(cancel_err);
        } else if (responsible) {
            s->waiters.for_each([&](ScopeWaiter *w) {
                if ((w->role != ScopeWaiter::Completion && w->handler != nullptr) || w->wait->done) return;
                retain_error(e);
                wake(w->wait, TASYNC_EFAILED, nullptr, e);
            });
        }
        if (responsible) break;
        if (!s->disposed) {
            // None waits yet: the owner may still await the scope (S4
            // rethrows the failure); if it lets go first, the error moves
            // to the parent then (release_undelivered).
            retain_error(e);
            if (co != nullptr) ++co->refs;
            s->undelivered.push_back({e, co});
            break;
        }
        move_to(next_level(this, s));
    }
    if (runner != nullptr) runner->stack_holds = held.next;
    scope_release(s);
    release_error(e);
}

// Errors of s that no responsibility point received: dropped (the owner
// took responsibility by awaiting the scope) or moved up (the owner let go).
void tasync_runtime::release_undelivered(tasync_scope *s, bool move_up) {
    std::vector<tasync_scope::Undelivered> pending;
    pending.swap(s->undelivered);
    for (const tasync_scope::Undelivered &u : pending) {
        if (move_up && s->rt != nullptr) propagate_error(u.co, next_level(this, s), u.error);
        release_error(u.error);
        if (u.co != nullptr && --u.co->refs == 0) u.co->destroy();
    }
}

// Whether an error of a coroutine of s meets an exception handler before
// anything else (S10's first steps): s's own handler, or its parent's
// child-scope handler.
static bool has_exception_handler(const tasync_scope *s) {
    if (s == nullptr || s->is_global || s->rt == nullptr) return false;
    if (s->exception_handler.fn != nullptr) return true;
    return s->parent != nullptr && s->parent->child_handler.fn != nullptr;
}

// Runs on the finishing coroutine's stack, after its entry returned (or
// from tasync_coroutine_route_error, while the host's frames still exist).
void tasync_runtime::before_finish(Coroutine *co) {
    void *e = co->error;
    if (e == nullptr || co->error_routed || co->group_task != nullptr || is_cancellation(e)) return;
    co->error_routed = true;
    // Observed before it failed (tasync_awaitable_observe): somebody answers
    // for it already, whether or not a handle is alive (S10).
    if (co->observed) return;
    bool may_observe = false;
    for (Waiter *w = co->waiters.front(); w != nullptr; w = co->waiters.next(w)) {
        if (!w->handles_error) continue;
        if (w->wait != nullptr && w->notify == nullptr) return;  // an awaiter receives it (C4)
        may_observe = true;  // tasync_await_any: observed only if it returns this one
    }
    tasync_scope *es = error_scope(co);
    if (co->handles > 0 && !may_observe && has_exception_handler(es)) {
        // A supervisor hears of the failure when it happens (S10): the
        // handler of the coroutine's scope (or the parent's child-scope
        // handler) takes it now, while the outcome stays on the coroutine
        // for a later awaiter; the error does not escalate again when the
        // last handle goes.
        co->observed = true;
        co->finishing = true;
        propagate_error(co, es, e);
        return;
    }
    if (co->handles == 0 && !may_observe) {
        // Nobody can ever await it: S10 at once, the coroutine still running.
        co->finishing = true;
        propagate_error(co, error_scope(co), e);
        return;
    }
    // Future semantics (S10): the outcome is final now and stays on the
    // coroutine for later awaiters; the error escalates only if the last
    // handle goes (or the program ends) with nobody having awaited it.
    finish_outcome(co);
    if (!hold_error(co)) return;
    co->finishing = true;
    co->escalating = true;
    ++active;  // its handlers may suspend: the program waits for them
    propagate_error(co, error_scope(co), co->error);
}

bool tasync_runtime::hold_error(Coroutine *co) {
    while (!co->observed && co->handles > 0 && !co->release_hold) {
        // Parked until one of them changes (tasync::detail::observe,
        // handle_released, release_holds). Not active, not waiting for
        // anything the deadlock detector knows: it blocks nothing.
        Wait w;
        w.kind = WaitKind::None;
        w.on_cancel = [](Wait *) { return false; };
        co->holding = true;
        holders.push_back(co);
        suspend_on(w);
        co->holding = false;
        for (std::size_t i = 0; i < holders.size(); ++i) {
            if (holders[i] == co) {
                holders.erase(holders.begin() + static_cast<std::ptrdiff_t>(i));
                break;
            }
        }
        release_value(w.value);
        release_error(w.error);
    }
    return !co->observed;
}

void tasync_runtime::release_holds() {
    for (Coroutine *co : holders) {
        co->release_hold = true;
        wake(co->wait, 0);
    }
}

// ===================================================================== ABI

namespace {

tasync_scope *live(tasync_scope *s) { return s != nullptr && s->rt != nullptr ? s : nullptr; }

void scope_wait_cleanup(Wait *w) {
    auto *sw = static_cast<ScopeWait *>(w);
    if (sw->held != nullptr) {
        if (sw->node.link.linked()) sw->held->waiters.remove(&sw->node);
        tasync_scope *s = sw->held;
        sw->held = nullptr;
        if (s->rt != nullptr) sw->rt->scope_release(s);
        else if (--s->refs == 0) delete s;
    }
    sw->cancel.detach();
    // On a normal resumption (the coroutine no longer points at the wait)
    // the waiter hands the collected errors to its handler; at runtime
    // teardown (it never resumes) they are released here.
    if (sw->co != nullptr && sw->co->wait == w) {
        for (void *e : sw->node.errors) sw->rt->release_error(e);
        sw->node.errors.clear();
    }
}

// S4's deadlock check: the caller would wait for itself.
int would_deadlock(tasync_runtime *rt, tasync_scope *s, void **out_error) {
    const tasync_coroutine *cur = rt->current;
    // A finally handler charged to the subtree would wait for itself too.
    if (!in_subtree(rt->scope_of(cur), s) && (cur->charged == nullptr || !in_subtree(cur->charged, s))) return 0;
    if (out_error != nullptr) {
        *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ESCOPE_DEADLOCK,
                                    "Awaiting a scope from within itself or its child scope would cause a deadlock" +
                                        (s->created_at.file != nullptr
                                             ? ". Scope created" + tasync_runtime::at(s->created_at)
                                             : std::string()));
    }
    return TASYNC_ESCOPE_DEADLOCK;
}

int bad_scope(tasync_runtime *rt, void **out_error) {
    if (out_error != nullptr && rt != nullptr)
        *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_EBAD_STATE, "The scope belongs to no live runtime");
    return TASYNC_EBAD_STATE;
}

int set_handler(tasync_scope *s, HandlerSlot tasync_scope::*which, tasync_exception_handler_cb cb, void *data,
                void (*release)(void *)) {
    if (live(s) == nullptr || s->is_global) {
        if (release != nullptr) release(data);
        return live(s) == nullptr ? -EINVAL : TASYNC_EBAD_STATE;
    }
    HandlerSlot &slot = s->*which;
    slot.reset();
    if (cb != nullptr) {
        slot.fn = cb;
        slot.data = data;
        slot.release = release;
    } else if (release != nullptr) {
        release(data);
    }
    return 0;
}

}  // namespace

extern "C" {

TASYNC_API int tasync_scope_create(tasync_runtime_t *rt, tasync_scope_t *parent, tasync_scope_t **out,
                                   void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (out == nullptr || rt == nullptr) return -EINVAL;
    *out = nullptr;
    if (parent != nullptr) {
        if (parent->rt != rt) return parent->rt == nullptr ? bad_scope(rt, out_error) : TASYNC_EWRONG_THREAD;
        if (parent->closed) {
            if (out_error != nullptr)
                *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ESCOPE_CLOSED,
                                            "Cannot create a child of a closed scope");
            return TASYNC_ESCOPE_CLOSED;
        }
    }
    tasync_scope *s = rt->new_scope(parent);
    s->created_at = rt->capture_location();
    *out = s;
    return 0;
}

TASYNC_API tasync_scope_t *tasync_scope_global(tasync_runtime_t *rt) {
    rt = running_runtime(rt);
    return rt != nullptr ? rt->global_scope : nullptr;
}

TASYNC_API tasync_scope_t *tasync_scope_current(tasync_runtime_t *rt) {
    rt = running_runtime(rt);
    if (rt == nullptr) return nullptr;
    return rt->current != nullptr ? rt->scope_of(rt->current) : rt->global_scope;
}

TASYNC_API tasync_scope_t *tasync_coroutine_scope(const tasync_coroutine_t *co) {
    if (co == nullptr || co->rt == nullptr) return nullptr;
    if (co->is_main) return co->rt->global_scope;
    return co->done ? nullptr : co->scope;
}

TASYNC_API tasync_scope_t *tasync_scope_parent(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->parent : nullptr;
}

TASYNC_API void tasync_scope_retain(tasync_scope_t *scope) {
    if (scope != nullptr) ++scope->refs;
}

TASYNC_API void tasync_scope_release(tasync_scope_t *scope) {
    if (scope == nullptr || scope->is_global) return;
    if (scope->rt != nullptr) {
        scope->rt->scope_release(scope);
    } else if (--scope->refs == 0) {
        delete scope;  // detached by runtime teardown: nothing left to release
    }
}

TASYNC_API tasync_runtime_t *tasync_scope_runtime(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->rt : nullptr;
}

TASYNC_API uint64_t tasync_scope_id(const tasync_scope_t *scope) { return scope != nullptr ? scope->id : 0; }

TASYNC_API uint32_t tasync_scope_flags(const tasync_scope_t *s) {
    if (s == nullptr) return 0;
    uint32_t f = 0;
    if (s->is_global) f |= TASYNC_SCOPE_GLOBAL;
    if (s->closed) f |= TASYNC_SCOPE_CLOSED;
    if (s->cancelled) f |= TASYNC_SCOPE_CANCELLED;
    if (s->disposed) f |= TASYNC_SCOPE_DISPOSED;
    if (s->sub_all == 0) f |= TASYNC_SCOPE_FINISHED;
    if (s->completed) f |= TASYNC_SCOPE_COMPLETED;
    if (s->not_safely) f |= TASYNC_SCOPE_NOT_SAFELY;
    if (s->failed) f |= TASYNC_SCOPE_FAILED;
    return f;
}

TASYNC_API tasync_location_t tasync_scope_location(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->created_at : tasync_location_t{};
}

TASYNC_API tasync_location_t tasync_scope_dispose_location(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->disposed_at : tasync_location_t{};
}

TASYNC_API size_t tasync_scope_active_count(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->sub_active : 0;
}

TASYNC_API size_t tasync_scope_zombie_count(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->sub_all - scope->sub_active : 0;
}

TASYNC_API void *tasync_scope_host_data(const tasync_scope_t *scope) {
    return scope != nullptr ? scope->host_data : nullptr;
}

TASYNC_API void tasync_scope_set_host_data(tasync_scope_t *scope, void *host_data) {
    if (scope != nullptr) scope->host_data = host_data;
}

TASYNC_API int tasync_scope_cancel(tasync_scope_t *scope, void *error) {
    if (live(scope) == nullptr) return -EINVAL;
    scope->rt->scope_cancel(scope, error, true);
    return 0;
}

TASYNC_API int tasync_scope_dispose(tasync_scope_t *scope, int strategy, uint64_t timeout_ns, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    if (live(scope) == nullptr) return -EINVAL;
    tasync_runtime *rt = scope->rt;
    const char *bad = nullptr;
    if (strategy < TASYNC_DISPOSE_CANCEL || strategy > TASYNC_DISPOSE_ON_RELEASE) {
        bad = "Unknown dispose strategy";
    } else if (strategy == TASYNC_DISPOSE_AFTER_TIMEOUT &&
               (timeout_ns == 0 || timeout_ns >= TASYNC_DISPOSE_TIMEOUT_MAX_NS)) {
        bad = "The timeout must be greater than 0 and less than 10 minutes";
    }
    if (bad != nullptr) {
        if (out_error != nullptr) *out_error = rt->make_error(TASYNC_ERROR_INVALID_ARGUMENT, -EINVAL, bad);
        return -EINVAL;
    }
    rt->scope_dispose(scope, strategy, timeout_ns);
    return 0;
}

TASYNC_API void tasync_scope_set_not_safely(tasync_scope_t *scope) {
    if (scope != nullptr) scope->not_safely = true;
}

TASYNC_API int tasync_scope_await_completion(tasync_runtime_t *rt, tasync_scope_t *scope,
                                             tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (scope == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (scope->rt != rt) return scope->rt == nullptr ? bad_scope(rt, out_error) : TASYNC_EWRONG_THREAD;
    if (cancellation != nullptr && cancellation->rt != rt) return -EINVAL;
    if (scope->cancelled) {
        // The caller is the responsibility point of errors nobody received.
        rt->release_undelivered(scope, false);
        void *e = scope->failure != nullptr ? scope->failure : scope->cancel_error;
        rt->retain_error(e);
        if (out_error != nullptr) *out_error = e;
        else rt->release_error(e);
        return TASYNC_EFAILED;
    }
    if (int rc = would_deadlock(rt, scope, out_error); rc != 0) return rc;
    scope->awaited = true;
    if (scope->sub_active == 0) return 0;
    ScopeWait w;
    w.kind = WaitKind::Scope;
    w.scope = scope;
    w.rt = rt;
    w.cleanup = &scope_wait_cleanup;
    if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
    w.node.wait = &w;
    w.node.role = ScopeWaiter::Completion;
    ++scope->refs;
    w.held = scope;
    scope->waiters.push_back(&w.node);
    rt->suspend_on(w);
    return finish_wait(rt, w, nullptr, out_error);
}

TASYNC_API int tasync_scope_await_after_cancellation(tasync_runtime_t *rt, tasync_scope_t *scope,
                                                     tasync_scope_error_cb handler, void *data,
                                                     tasync_awaitable_t *cancellation, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (scope == nullptr) return -EINVAL;
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (scope->rt != rt) return scope->rt == nullptr ? bad_scope(rt, out_error) : TASYNC_EWRONG_THREAD;
    if (cancellation != nullptr && cancellation->rt != rt) return -EINVAL;
    if (!scope->cancelled) {
        if (out_error != nullptr)
            *out_error = rt->make_error(TASYNC_ERROR_ASYNC, TASYNC_ENOT_CANCELLED,
                                        "awaitAfterCancellation() may only be called after the scope was cancelled");
        return TASYNC_ENOT_CANCELLED;
    }
    if (int rc = would_deadlock(rt, scope, out_error); rc != 0) return rc;
    scope->awaited = true;
    for (;;) {
        if (scope->sub_all == 0) return 0;
        ScopeWait w;
        w.kind = WaitKind::Scope;
        w.scope = scope;
        w.rt = rt;
        w.cleanup = &scope_wait_cleanup;
        if (!w.cancel.attach(&w, cancellation)) return cancelled_at_once(rt, w, out_error);
        w.node.wait = &w;
        w.node.role = ScopeWaiter::AfterCancel;
        w.node.handler = handler;
        ++scope->refs;
        w.held = scope;
        scope->waiters.push_back(&w.node);
        // Keep the errors past the cleanup, which releases what is left.
        rt->suspend_on(w);
        std::vector<void *> errors;
        errors.swap(w.node.errors);
        int rc = finish_wait(rt, w, nullptr, out_error);
        for (size_t i = 0; i < errors.size(); ++i) {
            int hrc = rc == 0 ? handler(data, scope, errors[i]) : 0;
            rt->release_error(errors[i]);
            if (hrc != 0 && rc == 0) rc = hrc;
        }
        if (rc != 0) return rc;
    }
}

TASYNC_API int tasync_scope_set_exception_handler(tasync_scope_t *scope, tasync_exception_handler_cb cb,
                                                  void *data, void (*release)(void *data)) {
    return set_handler(scope, &tasync_scope::exception_handler, cb, data, release);
}

TASYNC_API int tasync_scope_set_child_exception_handler(tasync_scope_t *scope, tasync_exception_handler_cb cb,
                                                        void *data, void (*release)(void *data)) {
    return set_handler(scope, &tasync_scope::child_handler, cb, data, release);
}

TASYNC_API int tasync_scope_on_finally(tasync_scope_t *scope, const tasync_spawn_options_t *callback) {
    if (callback == nullptr || callback->entry == nullptr ||
        callback->size < offsetof(tasync_spawn_options_t, location)) {
        return -EINVAL;
    }
    tasync_spawn_options_t cb{};
    std::memcpy(&cb, callback, callback->size < sizeof(cb) ? callback->size : sizeof(cb));
    cb.size = sizeof(cb);
    if (live(scope) == nullptr) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        return -EINVAL;
    }
    tasync_runtime *rt = scope->rt;
    if (cb.location.file == nullptr) cb.location = rt->capture_location();
    cb.flags = rt->abort_epoch;  // reserved for callers: the core's own note
    if (scope->completed) {
        // C11: registered on a completed scope, it runs at once (in its own
        // coroutine, in the scope).
        rt->spawn_handler(cb, scope, nullptr);
        return 0;
    }
    scope->finally_cbs.push_back(cb);
    return 0;
}

TASYNC_API int tasync_coroutine_on_finally(tasync_coroutine_t *co, const tasync_spawn_options_t *callback) {
    if (callback == nullptr || callback->entry == nullptr ||
        callback->size < offsetof(tasync_spawn_options_t, location)) {
        return -EINVAL;
    }
    tasync_spawn_options_t cb{};
    std::memcpy(&cb, callback, callback->size < sizeof(cb) ? callback->size : sizeof(cb));
    cb.size = sizeof(cb);
    if (co == nullptr || co->rt == nullptr) {
        if (cb.arg_release != nullptr) cb.arg_release(cb.arg);
        return -EINVAL;
    }
    tasync_runtime *rt = co->rt;
    if (cb.location.file == nullptr) cb.location = rt->capture_location();
    cb.flags = rt->abort_epoch;  // reserved for callers: the core's own note
    if (co->done) {
        // C11: registered on a finished coroutine, it runs at once, charged
        // to the coroutine's scope while the coroutine keeps it (its other
        // handlers or its held error are not done), else to nobody; while
        // its other handlers run, its awaiters wait for this one too.
        rt->spawn_handler(cb, co->scope, co);
        return 0;
    }
    if (co->finally_cbs == nullptr) co->finally_cbs = new std::vector<tasync_spawn_options_t>;
    co->finally_cbs->push_back(cb);
    return 0;
}

TASYNC_API size_t tasync_scope_coroutines(const tasync_scope_t *scope, tasync_coroutine_t **out, size_t cap) {
    if (scope == nullptr) return 0;
    size_t n = 0;
    for (tasync_coroutine *co = scope->coroutines.front(); co != nullptr; co = scope->coroutines.next(co)) {
        if (out != nullptr && n < cap) out[n] = co;
        ++n;
    }
    return n;
}

TASYNC_API size_t tasync_scope_children(const tasync_scope_t *scope, tasync_scope_t **out, size_t cap) {
    if (scope == nullptr) return 0;
    size_t n = 0;
    for (tasync_scope *c = scope->children.front(); c != nullptr; c = scope->children.next(c)) {
        if (out != nullptr && n < cap) out[n] = c;
        ++n;
    }
    return n;
}

TASYNC_API int tasync_coroutine_route_error(tasync_coroutine_t *self) {
    if (self == nullptr || self->rt == nullptr || self->rt->current != self || self->is_main) return TASYNC_EBAD_STATE;
    if (self->error != nullptr) self->rt->before_finish(self);
    return 0;
}

TASYNC_API int tasync_protect_begin(tasync_runtime_t *rt) {
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return TASYNC_ENOT_IN_COROUTINE;
    ++rt->current->protect_depth;
    return 0;
}

TASYNC_API int tasync_protect_end(tasync_runtime_t *rt, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return TASYNC_ENOT_IN_COROUTINE;
    tasync_coroutine *co = rt->current;
    if (co->protect_depth == 0) return TASYNC_EBAD_STATE;
    if (--co->protect_depth > 0 || !co->cancel_pending) return 0;
    // The cancellation held back during the section (C20).
    co->cancel_pending = false;
    if (out_error != nullptr) {
        rt->retain_error(co->cancel_error);
        *out_error = co->cancel_error;
    }
    return -ECANCELED;
}

}  // extern "C"
