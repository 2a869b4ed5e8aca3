// Operations on scopes: create and inherit (S1), cancel (S6), dispose with
// each strategy (S7, S8), release, await_completion (S4) and
// await_after_cancellation (S5), exception handlers (S10, S11), not-safely
// (S8) and completion callbacks (S12).
#include <set>

#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

namespace {

// Errors handlers raised: they flow up like coroutine errors.
thread_local std::set<const Error *> tl_raised;

void release_error(Episode &ep, void *e) {
    if (e != nullptr && ep.host.is_error(e)) ep.host.release(static_cast<Error *>(e));
}

ScopeRec *pick_scope(Episode &ep, Rng &rng, bool owned_only) {
    std::vector<ScopeRec *> v;
    for (ScopeRec *s : ep.live_scopes) {
        if (!owned_only || s->owned) v.push_back(s);
    }
    if (v.empty()) return nullptr;
    return v[rng.below(static_cast<std::uint32_t>(v.size()))];
}

// An error that may flow through S10: one a coroutine ended with, or one a
// handler raised.
bool flowing_error(Episode &ep, const Error *e) {
    if (tl_raised.count(e) != 0) return true;
    for (const CoRec &c : ep.cos) {
        if (c.error == e) return true;
    }
    return false;
}

int handler_cb(void *data, tasync_scope_t *scope, tasync_coroutine_t *co, void *error, void **out_error) {
    auto *h = static_cast<HandlerRec *>(data);
    ScopeRec *s = h->scope;
    Episode &ep = this_episode();
    ++h->calls;
    CoRec *runner = ep.current();
    CoRec *origin = co != nullptr ? ep.rec_of(co) : nullptr;
    ep.trace("   handler of " + ep.name(s) + (h->child ? " (child scopes)" : "") + " for " + ep.name(origin) +
             " on " + ep.name(runner));
    RANDOM_CHECK(ep, scope == s->core, "S10: a handler of " << ep.name(s) << " was called for another scope");
    RANDOM_CHECK(ep, ep.host.is_error(error), "S10: a handler got something other than an error");
    if (!ep.host.is_error(error)) return 0;
    auto *e = static_cast<Error *>(error);
    RANDOM_CHECK(ep, e->kind != TASYNC_ERROR_CANCELLATION && e->kind != TASYNC_ERROR_AWAIT_CANCELLED,
                 "C7: a cancellation reached the exception handler of " << ep.name(s));
    RANDOM_CHECK(ep, flowing_error(ep, e), "S10: the handler of " << ep.name(s) << " got an error nobody raised");
    if (origin != nullptr) {
        RANDOM_CHECK(ep, errors_flow(origin),
                     "G1: the error of group task " << ep.name(origin) << " reached the handler of " << ep.name(s));
        RANDOM_CHECK(ep, origin->scope == nullptr || ep.in_subtree(origin->scope, s),
                     "S10: the handler of " << ep.name(s) << " got the error of " << ep.name(origin)
                                            << ", which is not in its subtree");
        if (h->child) {
            RANDOM_CHECK(ep, origin->scope != s, "S10: the child-scope handler of " << ep.name(s)
                                                                                    << " got an error of its own coroutine "
                                                                                    << ep.name(origin));
        }
    }
    if (origin != nullptr && runner == origin && origin->core != nullptr &&
        !(tasync_coroutine_flags(origin->core) & TASYNC_CO_COMPLETED))
        origin->heard_at_once = true;
    if (runner != nullptr) ++runner->handlers;
    int rc = 0;
    // A handler suspends only on the failing coroutine's own stack: one
    // called from inside another coroutine's dispose (an error moving up,
    // S10) would leave that dispose half done while others run, a state
    // the model does not follow.
    const int behaviour = h->behaviour == 3 && runner != origin ? 0 : h->behaviour;
    switch (behaviour) {
        case 0:
            ep.error_handled();
            break;
        case 1: rc = 1; break;
        case 2: {
            Error *raised = ep.host.error(TASYNC_ERROR_ASYNC, "raised by the handler of " + ep.name(s));
            tl_raised.insert(raised);
            *out_error = raised;
            rc = 1;
            break;
        }
        default: {
            // The handler suspends (handlers may, scope.h).
            if (runner != nullptr) {
                WaitRec saved = runner->wait;
                runner->wait = WaitRec{};
                runner->wait.kind = WaitKind::Handler;
                runner->wait.active = true;
                void *ye = nullptr;
                int yrc = tasync_yield(ep.rt, &ye);
                runner->wait = saved;
                ep.sync();
                RANDOM_CHECK(ep, yrc == 0 || yrc == -ECANCELED, "a yield in a handler returned " << yrc);
                if (yrc == -ECANCELED) runner->cancel_pending = false;
                release_error(ep, ye);
            }
            ep.error_handled();
            break;
        }
    }
    if (runner != nullptr) --runner->handlers;
    return rc;
}

void handler_release(void *data) {
    auto *h = static_cast<HandlerRec *>(data);
    Episode &ep = this_episode();
    ++h->released;
    RANDOM_CHECK(ep, h->released == 1, "S11: a handler's data was released " << h->released << " times");
}

// Installs (or removes, behaviour < 0) a handler on s.
int set_handler(Episode &ep, ScopeRec *s, bool child, int behaviour) {
    ep.handlers.emplace_back();
    HandlerRec *h = &ep.handlers.back();
    h->scope = s;
    h->child = child;
    h->behaviour = behaviour;
    HandlerRec *old = child ? s->child_handler : s->handler;
    int rc = behaviour < 0 ? (child ? tasync_scope_set_child_exception_handler(s->core, nullptr, h, &handler_release)
                                    : tasync_scope_set_exception_handler(s->core, nullptr, h, &handler_release))
                           : (child ? tasync_scope_set_child_exception_handler(s->core, &handler_cb, h, &handler_release)
                                    : tasync_scope_set_exception_handler(s->core, &handler_cb, h, &handler_release));
    if (s->is_global) {
        RANDOM_CHECK(ep, rc == TASYNC_EBAD_STATE && h->released == 1,
                     "S11: setting a handler on the global scope returned " << rc << " (data released " << h->released
                                                                          << " times)");
        return rc;
    }
    RANDOM_CHECK(ep, rc == 0, "S11: setting a handler on " << ep.name(s) << " returned " << rc);
    if (old != nullptr)
        RANDOM_CHECK(ep, old->released == 1, "S11: the replaced handler of " << ep.name(s) << " was not released");
    if (behaviour < 0) {
        RANDOM_CHECK(ep, h->released == 1, "S11: removing a handler did not release its data");
        (child ? s->child_handler : s->handler) = nullptr;
    } else {
        h->installed = true;
        (child ? s->child_handler : s->handler) = h;
    }
    return rc;
}

int scope_error_cb(void *data, tasync_scope_t *scope, void *error) {
    auto *self = static_cast<CoRec *>(data);
    Episode &ep = this_episode();
    ScopeRec *s = ep.scope_rec(scope);
    RANDOM_CHECK(ep, ep.host.is_error(error) && flowing_error(ep, static_cast<Error *>(error)),
                 "S5: await_after_cancellation of " << ep.name(s) << " handed over an error nobody raised");
    ep.error_handled();
    return self->rng.chance(15) ? 7 : 0;
}

}  // namespace

void install_default_handlers(Episode &ep, ScopeRec *s) {
    Rng &rng = s->rng;
    if (rng.chance(75)) set_handler(ep, s, false, static_cast<int>(rng.below(4)));
    if (rng.chance(25)) set_handler(ep, s, true, static_cast<int>(rng.below(4)));
}

std::string op_scope_create(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    if (ep.live_scopes.size() >= Episode::kMaxScopes) return "skip";
    ScopeRec *parent = nullptr;
    unsigned r = rng.below(100);
    if (r < 40) parent = nullptr;
    else if (r < 70) parent = ep.scope_of_current();
    else parent = pick_scope(ep, rng, false);
    tasync_scope_t *s = nullptr;
    void *err = nullptr;
    int rc = tasync_scope_create(ep.rt, parent != nullptr ? parent->core : nullptr, &s, &err);
    if (parent != nullptr && (parent->closed || (rc == TASYNC_ESCOPE_CLOSED && ep.learn_closed(parent)))) {
        RANDOM_CHECK(ep, rc == TASYNC_ESCOPE_CLOSED && s == nullptr && ep.host.is_error(err),
                     "S3: creating a child of the closed " << ep.name(parent) << " returned " << rc);
        release_error(ep, err);
        return "closed parent " + ep.name(parent);
    }
    RANDOM_CHECK(ep, rc == 0 && s != nullptr, "S1: tasync_scope_create returned " << rc);
    release_error(ep, err);
    if (rc != 0) return "rc=" + std::to_string(rc);
    ScopeRec *rec = ep.new_scope(parent, s);
    RANDOM_CHECK(ep, tasync_scope_parent(s) == (parent != nullptr ? parent->core : nullptr),
                 "S1: " << ep.name(rec) << " has another parent");
    rec->owned = true;
    if (rng.chance(60)) {
        tasync_scope_retain(s);
        rec->observed = true;
    }
    ep.live_scopes.push_back(rec);
    install_default_handlers(ep, rec);
    return ep.name(rec) + " under " + (parent != nullptr ? ep.name(parent) : std::string("none"));
}

std::string op_scope_cancel(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ScopeRec *s = rng.chance(15) ? ep.scope_of_current() : pick_scope(ep, rng, false);
    if (s == nullptr || s->is_global) return "skip";
    Error *err = rng.chance(50) ? ep.host.error(TASYNC_ERROR_CANCELLATION, "cancellation of " + ep.name(s)) : nullptr;
    const std::uint64_t warnings = ep.host.warnings();
    const bool again = s->cancelled;
    ep.learn_liveness(s);
    int rc = tasync_scope_cancel(s->core, err);
    RANDOM_CHECK(ep, rc == 0, "S6: cancelling " << ep.name(s) << " returned " << rc);
    if (again && err != nullptr)
        RANDOM_CHECK(ep, ep.host.warnings() > warnings, "S6: cancelling the cancelled " << ep.name(s) << " with an error did not warn");
    ep.cancel_scope(s, err != nullptr ? ep.slot(err, false) : ep.slot(nullptr, true), true);
    if (err != nullptr) ep.host.release(err);
    return ep.name(s) + (again ? " (again)" : "");
}

// What a tasync_scope_dispose call did, in the core's order. Errors nobody
// received in s moved up first (S10), before the disposal. When s is
// marked disposed, the dispose went on past them: a shutdown phase seen
// now was started later, by an error a child let move up during the walk
// (which dispose_scope learns where that child comes), or by something the
// walk caused; the coroutines the walk reached before it (its CANCEL
// strategy's cancellations, say) are not the sweep's.
static void apply_dispose(Episode &ep, ScopeRec *s, int strategy, std::uint64_t timeout, std::uint64_t started,
                          const std::vector<CoRec *> &known) {
    const bool walked = s->queryable() && (tasync_scope_flags(s->core) & TASYNC_SCOPE_DISPOSED);
    ep.learn_escalations(true, nullptr, !walked);
    ep.dispose_scope(s, strategy, timeout, started);
    if (walked) ep.learn_shutdown_phase(known);
}

std::string op_scope_dispose(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ScopeRec *s = rng.chance(10) ? ep.scope_of_current() : pick_scope(ep, rng, false);
    if (s == nullptr || s->is_global) return "skip";
    int strategy = static_cast<int>(1 + rng.below(4));
    std::uint64_t timeout = 0;
    if (strategy == TASYNC_DISPOSE_AFTER_TIMEOUT) timeout = 1 + ep.duration(rng);
    bool bad = false;
    if (rng.chance(4)) {
        bad = true;
        if (rng.chance(50)) strategy = rng.chance(50) ? 0 : 99;
        else {
            strategy = TASYNC_DISPOSE_AFTER_TIMEOUT;
            timeout = rng.chance(50) ? 0 : TASYNC_DISPOSE_TIMEOUT_MAX_NS;
        }
    }
    void *err = nullptr;
    ep.learn_liveness(s);
    const std::uint64_t started = ep.now();
    const std::vector<CoRec *> known(ep.unfinished);
    int rc = tasync_scope_dispose(s->core, strategy, timeout, &err);
    if (bad) {
        RANDOM_CHECK(ep, rc == -EINVAL && ep.host.is_error(err) &&
                             static_cast<Error *>(err)->kind == TASYNC_ERROR_INVALID_ARGUMENT,
                     "S7: disposing with strategy " << strategy << " and timeout " << timeout << " returned " << rc);
    } else {
        RANDOM_CHECK(ep, rc == 0, "S7: disposing " << ep.name(s) << " returned " << rc);
        apply_dispose(ep, s, strategy, timeout, started, known);
    }
    release_error(ep, err);
    return ep.name(s) + " strategy " + std::to_string(strategy) + (bad ? " (invalid)" : "");
}

void release_scope(Episode &ep, ScopeRec *s, bool dispose_first) {
    ep.sync();  // learn what it shows while it still can
    if (dispose_first && s->core != nullptr && !ep.destroyed) {
        ep.learn_liveness(s);
        const std::vector<CoRec *> known(ep.unfinished);
        int rc = tasync_scope_dispose(s->core, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
        RANDOM_CHECK(ep, rc == 0, "S8: dispose on release of " << ep.name(s) << " returned " << rc);
        apply_dispose(ep, s, TASYNC_DISPOSE_ON_RELEASE, 0, 0, known);
    }
    if (s->owned) {
        s->owned = false;
        tasync_scope_release(s->core);
    }
    if (!s->observed) ep.remove_live_scope(s);
}

std::string op_scope_release(Episode &ep, CoRec *self) {
    ScopeRec *s = pick_scope(ep, self->rng, true);
    if (s == nullptr) return "skip";
    const bool dispose = self->rng.chance(60);
    release_scope(ep, s, dispose);
    return ep.name(s) + (dispose ? " (disposed on release)" : "");
}

std::string op_scope_await(Episode &ep, CoRec *self, bool after_cancel) {
    Rng &rng = self->rng;
    ScopeRec *s = rng.chance(5) ? ep.scope_of_current() : pick_scope(ep, rng, false);
    if (s == nullptr || s->is_global) return "skip";
    // The current coroutine's own scope may be one the tester released:
    // the runtime keeps it alive while the coroutine is in it, and an
    // error moving up (S10) or a dispose timer (S7) may have cancelled it
    // where learn_escalations, which reads only the scopes the tester
    // holds, could not see it. Its flags say so before the call decides
    // between S4's deadlock and S5's "not cancelled".
    auto learn_unobserved = [&ep, s] {
        if (s->queryable() || s->core == nullptr || s->cancelled || ep.failed) return;
        const uint32_t f = tasync_scope_flags(s->core);
        if (!(f & TASYNC_SCOPE_CANCELLED)) return;
        RANDOM_CHECK(ep, ep.scope_unseen_cancel_possible(s),
                     "S6: " << ep.name(s) << " was cancelled, by nobody the tester knows of");
        if (f & TASYNC_SCOPE_FAILED) s->failed = true;
        ep.learn_liveness(s, true, true);  // alive: the current coroutine is in it
        ep.cancel_scope(s, ep.learned_slot(), false, true);
    };
    if (s == ep.scope_of_current()) learn_unobserved();
    // The scope stays readable until the call's outcome is checked, also
    // when another coroutine releases the tester's last reference to it
    // meanwhile (the wait's own reference goes when the wait ends).
    tasync_scope_retain(s->core);
    OnUnwind unpin([core = s->core] { tasync_scope_release(core); });
    // A finally callback charged to the subtree would wait for itself too.
    const CoRec *cur = ep.current();
    const bool deadlock = ep.in_subtree(ep.scope_of_current(), s) ||
                          (cur != nullptr && cur->charged != nullptr && ep.in_subtree(cur->charged, s));
    AwRec *canc = pick_cancellation(ep, self);
    Pin canc_pin(canc);
    tasync_awaitable_t *canc_aw = canc_pin.aw;
    const bool canc_done = canc != nullptr && (canc->completed || tasync_awaitable_is_completed(canc_aw));
    bool fast;
    if (after_cancel) fast = !s->cancelled || deadlock || s->all == 0 || canc_done;
    else fast = s->cancelled || deadlock || s->active == 0 || canc_done;
    const bool with_handler = after_cancel && rng.chance(60);
    self->wait = WaitRec{};
    self->wait.scope = s;
    self->wait.cancellation = canc;
    self->wait.scope_epoch = after_cancel ? s->zero_all_epoch : s->zero_active_epoch;
    const bool was_cancelled = s->cancelled;
    const long active0 = s->active;
    const long all0 = s->all;
    ep.begin_wait(self, after_cancel ? WaitKind::ScopeAfterCancel : WaitKind::Scope);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    ++s->waiters;
    void *err = nullptr;
    int rc = after_cancel ? tasync_scope_await_after_cancellation(ep.rt, s->core, with_handler ? &scope_error_cb : nullptr,
                                                                  self, canc_aw, &err)
                          : tasync_scope_await_completion(ep.rt, s->core, canc_aw, &err);
    --s->waiters;
    ep.end_wait(self);
    // A failure or cancellation of a scope the tester released while this
    // coroutine waited (learn_escalations reads only the scopes it holds).
    learn_unobserved();
    const std::string n = ep.name(s);
    if (deadlock && (after_cancel ? was_cancelled : !was_cancelled)) {
        RANDOM_CHECK(ep, rc == TASYNC_ESCOPE_DEADLOCK, "S4: awaiting " << n << " from inside it returned " << rc);
    } else if (after_cancel && !was_cancelled) {
        RANDOM_CHECK(ep, rc == TASYNC_ENOT_CANCELLED, "S5: await_after_cancellation of the uncancelled " << n << " returned " << rc);
    } else if (rc == -ECANCELED || rc == TASYNC_EAWAIT_CANCELLED) {
        ep.expect_cancel_outcome(self, rc, err, "a scope wait");
        if (rc == TASYNC_EAWAIT_CANCELLED)
            RANDOM_CHECK(ep, canc_aw != nullptr && tasync_awaitable_is_completed(canc_aw), "C5: a scope wait of " << n << " says its cancellation completed");
    } else {
        ep.expect_cancel_outcome(self, rc, err, "a scope wait");
        if (after_cancel) {
            // Without a handler the caller is a responsibility point (scope.h,
            // ABI 1.2): an error no exception handler takes ends the wait.
            const bool failure = !with_handler && rc == TASYNC_EFAILED && ep.host.is_error(err) &&
                                 flowing_error(ep, static_cast<Error *>(err));
            RANDOM_CHECK(ep, rc == 0 || (with_handler && rc == 7) || failure,
                         "S5: await_after_cancellation of " << n << " returned " << rc);
            if (rc == 0)
                RANDOM_CHECK(ep, all0 == 0 || s->zero_all_epoch > self->wait.scope_epoch,
                             "S5: await_after_cancellation of " << n << " returned while coroutines remained");
        } else if (rc == 0) {
            RANDOM_CHECK(ep, active0 == 0 || s->zero_active_epoch > self->wait.scope_epoch,
                         "S4: await_completion of " << n << " returned while coroutines remained active");
        } else {
            RANDOM_CHECK(ep, rc == TASYNC_EFAILED && s->cancelled, "S4: await_completion of " << n << " returned " << rc);
            RANDOM_CHECK(ep, ep.error_matches(s->cancel_error, err) ||
                                 (ep.host.is_error(err) && flowing_error(ep, static_cast<Error *>(err))),
                         "S4: await_completion of the cancelled " << n << " gave an error that is neither its failure nor its cancellation: "
                                 << ep.describe(err) << ", the model expects " << ep.describe(s->cancel_error));
        }
    }
    s->awaited = true;
    release_error(ep, err);
    return n + " rc=" + std::to_string(rc);
}

std::string op_scope_handler(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ScopeRec *s = rng.chance(5) ? ep.global : pick_scope(ep, rng, false);
    if (s == nullptr) return "skip";
    const bool child = rng.chance(35);
    const int behaviour = rng.chance(15) ? -1 : static_cast<int>(rng.below(4));
    set_handler(ep, s, child, behaviour);
    return ep.name(s) + (child ? " child " : " own ") + std::to_string(behaviour);
}

std::string op_scope_not_safely(Episode &ep, CoRec *self) {
    ScopeRec *s = pick_scope(ep, self->rng, false);
    if (s == nullptr) return "skip";
    tasync_scope_set_not_safely(s->core);
    s->not_safely = true;
    return ep.name(s);
}

std::string op_scope_finally(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    ScopeRec *s = rng.chance(10) ? ep.global : pick_scope(ep, rng, false);
    if (s == nullptr || ep.unfinished.size() >= Episode::kMaxUnfinished) return "skip";
    ep.fins.emplace_back();
    FinRec *f = &ep.fins.back();
    f->target_scope = s;
    f->registered_op = ep.op_index;
    CoRec *cb = ep.new_co(CoKind::Finally, 1, rng.fork());
    cb->program = ep.make_program(cb->rng, CoKind::Finally, 1);
    cb->state = CoState::Registered;
    cb->fin = f;
    f->cb = cb;
    tasync_spawn_options_t o = ep.spawn_options(cb, nullptr);
    int rc = tasync_scope_on_finally(s->core, &o);
    RANDOM_CHECK(ep, rc == 0, "S12: on_finally on " << ep.name(s) << " returned " << rc);
    if (s->completed) {
        // C11: registered on a completed scope, it runs at once, charged to
        // the scope.
        ep.spawn_finally(f, s);
        tasync_coroutine_t *buf[64];
        size_t n = tasync_scope_coroutines(ep.global->core, buf, 64);
        if (n > 0 && n <= 64) cb->core = buf[n - 1];
    } else {
        s->finals.push_back(f);
    }
    return ep.name(cb) + " on " + ep.name(s);
}

}  // namespace tasync_random
