// Operations on coroutines and awaitables: spawn (C1, S2, S3), yield and
// park (C2), await with and without a cancellation awaitable (C4, C5, C6,
// C21), await_any, futures, cancellation (C7, C8), protect sections (C20),
// results and errors, handles, finally callbacks (C11), contexts (X1, X2),
// introspection (C12) and shutdown (C15).
#include <algorithm>
#include <cstring>

#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

// Helpers the operations share (ops.hpp).

std::string rc_text(int rc) { return "rc=" + std::to_string(rc); }

void release_outs(Episode &ep, void *v, void *e) {
    if (v != nullptr && ep.host.is_value(v)) ep.host.release(static_cast<Value *>(v));
    if (e != nullptr && ep.host.is_error(e)) ep.host.release(static_cast<Error *>(e));
}

OnUnwind::OnUnwind(std::function<void()> action) : ep_(this_episode()) {
    ep_.unwinds.push_front(std::move(action));
    it_ = ep_.unwinds.begin();
}

OnUnwind::~OnUnwind() {
    std::function<void()> action = std::move(*it_);
    ep_.unwinds.erase(it_);
    action();
}

tasync_awaitable_t *Pin::take(AwRec *a) {
    if (a == nullptr) return nullptr;
    if (a->held) tasync_awaitable_retain(a->aw);
    return a->aw;
}

Pin::Pin(AwRec *a) : aw(take(a)), release_([held = aw] { tasync_awaitable_release(held); }) {}

AwRec *new_timeout(Episode &ep, Rng &rng, bool listed) {
    ep.aws.emplace_back();
    AwRec *a = &ep.aws.back();
    a->aid = ep.next_id++;
    a->kind = AwRec::Kind::Timeout;
    a->duration_ns = ep.duration(rng);
    a->created_ns = ep.now();
    int rc = tasync_timeout_create(ep.rt, a->duration_ns, &a->aw);
    RANDOM_CHECK(ep, rc == 0 && a->aw != nullptr, "tasync_timeout_create returned " << rc);
    a->held = listed;
    if (listed) ep.futures.push_back(a);
    return a;
}

bool completed_now(Episode &ep, AwRec *a) {
    if (a->completed) return true;
    if (a->kind == AwRec::Kind::Future) return false;
    (void)ep;
    return tasync_awaitable_is_completed(a->aw) != 0;
}

bool common_outcome(Episode &ep, CoRec *self, int rc, void *e, AwRec *canc, const char *what) {
    if (rc == -ECANCELED) {
        ep.expect_cancel_outcome(self, rc, e, what);
        return true;
    }
    ep.expect_cancel_outcome(self, rc, e, what);
    if (rc == TASYNC_EAWAIT_CANCELLED) {
        RANDOM_CHECK(ep, canc != nullptr && tasync_awaitable_is_completed(canc->aw),
                     "C5: " << what << " of " << ep.name(self) << " says its cancellation awaitable completed, it did not");
        RANDOM_CHECK(ep, ep.host.is_error(e) && static_cast<Error *>(e)->kind == TASYNC_ERROR_AWAIT_CANCELLED,
                     "C5: " << what << " of " << ep.name(self) << " did not give an AwaitCancelledException");
        return true;
    }
    return false;
}

CoRec *pick(Episode &ep, Rng &rng, const std::vector<CoRec *> &v) {
    (void)ep;
    if (v.empty()) return nullptr;
    return v[rng.below(static_cast<std::uint32_t>(v.size()))];
}

AwRec *pick_cancellation(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    unsigned r = rng.below(100);
    if (r < 60) return nullptr;
    if (r < 85 || ep.futures.empty()) return new_timeout(ep, rng, false);
    return ep.futures[rng.below(static_cast<std::uint32_t>(ep.futures.size()))];
}

std::string op_spawn(Episode &ep, CoRec *self, Op op) {
    Rng &rng = self->rng;
    if (ep.unfinished.size() >= Episode::kMaxUnfinished || self->depth >= Episode::kMaxDepth) return "skip";
    ScopeRec *target = ep.scope_of_current();
    tasync_scope_t *sc = nullptr;
    if (op == Op::SpawnInScope) {
        if (ep.live_scopes.empty() || rng.chance(10)) {
            target = ep.global;
        } else {
            target = ep.live_scopes[rng.below(static_cast<std::uint32_t>(ep.live_scopes.size()))];
        }
        sc = target->core;
    }
    CoRec *c = ep.new_co(CoKind::Task, self->depth + 1, rng.fork());
    c->program = ep.make_program(c->rng, CoKind::Task, c->depth);
    tasync_spawn_options_t o = ep.spawn_options(c, sc);
    tasync_coroutine_t *h = nullptr;
    void *err = nullptr;
    int rc = tasync_spawn(ep.rt, &o, &h, &err);
    if (target->closed || (rc == TASYNC_ESCOPE_CLOSED && ep.learn_closed(target))) {
        RANDOM_CHECK(ep, rc == TASYNC_ESCOPE_CLOSED && ep.host.is_error(err) &&
                             static_cast<Error *>(err)->kind == TASYNC_ERROR_ASYNC,
                     "S3: spawning into the closed " << ep.name(target) << " returned " << rc);
        c->state = CoState::Done;  // never existed
        c->spawn_failed = true;
        release_outs(ep, nullptr, err);
        return "closed " + ep.name(target);
    }
    RANDOM_CHECK(ep, rc == 0 && h != nullptr, "C1: spawning into " << ep.name(target) << " returned " << rc);
    release_outs(ep, nullptr, err);
    if (rc != 0) {
        c->state = CoState::Done;
        c->spawn_failed = true;
        return rc_text(rc);
    }
    c->core = h;
    c->core_id = tasync_coroutine_id(h);
    ep.spawned(c, target);
    if (rng.chance(65)) {
        c->handle = h;
        ep.handles.push_back(c);
    } else {
        tasync_coroutine_release(h);
    }
    return ep.name(c) + " in " + ep.name(target) + " (" + std::to_string(c->program.size()) + " steps)";
}

std::string op_yield(Episode &ep, CoRec *self) {
    self->wait = WaitRec{};
    ep.begin_wait(self, WaitKind::Yield);
    void *e = nullptr;
    int rc = tasync_yield(ep.rt, &e);
    ep.end_wait(self);
    if (!common_outcome(ep, self, rc, e, nullptr, "yield")) RANDOM_CHECK(ep, rc == 0, "C2: yield returned " << rc);
    release_outs(ep, nullptr, e);
    return rc_text(rc);
}

std::string op_park(Episode &ep, CoRec *self) {
    self->wait = WaitRec{};
    ep.begin_wait(self, WaitKind::Park);
    void *v = nullptr;
    void *e = nullptr;
    int rc = tasync_suspend(ep.rt, &v, &e);
    ep.end_wait(self);
    const WaitRec &w = self->wait;
    if (!common_outcome(ep, self, rc, e, nullptr, "suspend")) {
        RANDOM_CHECK(ep, w.resumed, "tasync_suspend of " << ep.name(self) << " returned " << rc << " without a resume");
        if (rc == 0) RANDOM_CHECK(ep, v == w.resume_value, "tasync_suspend of " << ep.name(self) << " returned another value");
        else
            RANDOM_CHECK(ep, rc == TASYNC_EFAILED && e == w.resume_error,
                         "tasync_suspend of " << ep.name(self) << " returned " << rc << " or another error");
    }
    release_outs(ep, v, e);
    return rc_text(rc);
}

std::string resume_parked(Episode &ep, CoRec *target, Rng &rng) {
    WaitRec &w = target->wait;
    const bool with_error = rng.chance(30);
    int rc;
    if (with_error) {
        Error *e = ep.host.error(TASYNC_ERROR_ASYNC, "resume error for " + ep.name(target));
        rc = tasync_resume_error(target->core, e);
        if (rc == 0) w.resume_error = e;
        ep.host.release(e);
    } else {
        Value *v = ep.host.value(static_cast<long>(ep.op_index), "resume value for " + ep.name(target));
        rc = tasync_resume(target->core, v);
        if (rc == 0) w.resume_value = v;
        ep.host.release(v);
    }
    // A parked coroutine already woken by a cancellation is no longer
    // parked there.
    const bool woken = w.must_cancel || w.forced || w.may_cancel || ep.unseen_cancel_possible(target);
    RANDOM_CHECK(ep, rc == 0 || (rc == TASYNC_EBAD_STATE && woken),
                 "resuming the parked " << ep.name(target) << " returned " << rc);
    w.resumed = rc == 0;
    for (std::size_t i = 0; i < ep.parked.size(); ++i) {
        if (ep.parked[i] == target) {
            ep.parked[i] = ep.parked.back();
            ep.parked.pop_back();
            break;
        }
    }
    if (rc == 0 && rng.chance(10)) {
        int again = tasync_resume(target->core, nullptr);
        RANDOM_CHECK(ep, again == TASYNC_EBAD_STATE, "resuming " << ep.name(target) << " twice returned " << again);
    }
    return ep.name(target) + (with_error ? " with an error " : " with a value ") + rc_text(rc);
}

std::string op_resume(Episode &ep, CoRec *self) {
    CoRec *t = pick(ep, self->rng, ep.parked);
    if (t == nullptr || t == self) return "skip";
    return resume_parked(ep, t, self->rng);
}

std::string op_delay(Episode &ep, CoRec *self) {
    const std::uint64_t d = ep.duration(self->rng);
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const bool fast = canc != nullptr && completed_now(ep, canc);
    self->wait = WaitRec{};
    self->wait.cancellation = canc;
    const std::uint64_t start = ep.now();
    ep.begin_wait(self, WaitKind::Delay);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *e = nullptr;
    int rc = tasync_delay(ep.rt, d, canc != nullptr ? canc->aw : nullptr, &e);
    ep.end_wait(self);
    if (!common_outcome(ep, self, rc, e, canc, "delay")) {
        RANDOM_CHECK(ep, rc == 0, "C21: delay returned " << rc);
        const std::uint64_t n = ep.now();
        RANDOM_CHECK(ep, n >= start + d, "C21: a delay of " << d << " ns ended after " << (n - start) << " ns");
    }
    release_outs(ep, nullptr, e);
    return std::to_string(d) + " ns " + rc_text(rc);
}

// The outcome of awaiting coroutine t: its own value or error object (C4).
static void check_coroutine_outcome(Episode &ep, CoRec *self, CoRec *t, int rc, void *v, void *e) {
    RANDOM_CHECK(ep, t->state == CoState::Done,
                 "C4: " << ep.name(self) << "'s await of " << ep.name(t) << " returned " << rc << " before it completed");
    if (rc == 0 || rc == TASYNC_EFAILED) t->outcome_taken = true;
    if (ep.failed || !t->outcome_known) return;
    if (t->outcome_failed) {
        RANDOM_CHECK(ep, rc == TASYNC_EFAILED && ep.error_matches(t->outcome_error, e),
                     "C4: awaiting " << ep.name(t) << " gave " << rc << " and not its error object");
    } else {
        RANDOM_CHECK(ep, rc == 0 && v == t->outcome_value,
                     "C4: awaiting " << ep.name(t) << " gave " << rc << " and not its result object");
    }
    if (expect::kFinallyBeforeAwaiters) {
        for (FinRec *f : t->finals) {
            RANDOM_CHECK(ep, f->cb->state == CoState::Done,
                         "C11: " << ep.name(self) << " resumed before the finally callback " << ep.name(f->cb) << " of "
                                 << ep.name(t) << " ran");
        }
    }
}

std::string op_await_coroutine(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    CoRec *t = rng.chance(4) ? self : pick(ep, rng, ep.handles);
    if (t == nullptr || (t == self && self->handle == nullptr && self->kind != CoKind::Main)) t = self;
    if (t == self && self->kind == CoKind::Main) return "skip";
    tasync_awaitable_t *aw = tasync_coroutine_awaitable(t == self ? self->core : t->handle);
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const bool fast = t == self || t->state == CoState::Done || (canc != nullptr && completed_now(ep, canc));
    self->wait = WaitRec{};
    self->wait.co_target = t;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::AwaitCoroutine);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *v = nullptr;
    void *e = nullptr;
    int rc = tasync_await(ep.rt, aw, canc != nullptr ? canc->aw : nullptr, &v, &e);
    ep.end_wait(self);
    if (t == self) {
        RANDOM_CHECK(ep, rc == TASYNC_ESELF_AWAIT && ep.host.is_error(e) &&
                             static_cast<Error *>(e)->kind == TASYNC_ERROR_ASYNC,
                     "C6: " << ep.name(self) << " awaiting itself returned " << rc);
    } else if (!common_outcome(ep, self, rc, e, canc, "await")) {
        check_coroutine_outcome(ep, self, t, rc, v, e);
    }
    release_outs(ep, v, e);
    return ep.name(t) + " " + rc_text(rc);
}

std::string op_await_awaitable(Episode &ep, CoRec *self, bool timeout, AwRec *target) {
    Rng &rng = self->rng;
    AwRec *a = target;
    if (a != nullptr) {
    } else if (timeout || ep.futures.empty()) {
        a = new_timeout(ep, rng, false);
    } else {
        a = ep.futures[rng.below(static_cast<std::uint32_t>(ep.futures.size()))];
    }
    Pin pin_a(a);
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    const bool fast = completed_now(ep, a) || (canc != nullptr && completed_now(ep, canc));
    self->wait = WaitRec{};
    self->wait.aw_target = a;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::AwaitAwaitable);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *v = nullptr;
    void *e = nullptr;
    int rc = tasync_await(ep.rt, a->aw, canc != nullptr ? canc->aw : nullptr, &v, &e);
    ep.end_wait(self);
    if (!common_outcome(ep, self, rc, e, canc, "await")) {
        RANDOM_CHECK(ep, completed_now(ep, a), "C4: await returned " << rc << " before a" << a->aid << " completed");
        if (a->kind == AwRec::Kind::Future) {
            if (a->failed) RANDOM_CHECK(ep, rc == TASYNC_EFAILED && e == a->error, "C4: awaiting future a" << a->aid << " gave " << rc << " and not its error");
            else RANDOM_CHECK(ep, rc == 0 && v == a->value, "C4: awaiting future a" << a->aid << " gave " << rc << " and not its value");
        } else if (a->kind == AwRec::Kind::Timeout) {
            RANDOM_CHECK(ep, rc == 0 && v == nullptr, "C21: awaiting timeout a" << a->aid << " returned " << rc);
            RANDOM_CHECK(ep, ep.now() >= a->created_ns + a->duration_ns, "C21: timeout a" << a->aid << " completed early");
        } else {
            void *ov = nullptr;
            void *oe = nullptr;
            int orc = tasync_awaitable_outcome(a->aw, &ov, &oe);
            RANDOM_CHECK(ep, orc == rc && ov == v && oe == e,
                         "C4: awaiting group awaitable a" << a->aid << " gave another outcome than it holds");
        }
    }
    release_outs(ep, v, e);
    return "a" + std::to_string(a->aid) + " " + rc_text(rc);
}

std::string op_await_any(Episode &ep, CoRec *self) {
    Rng &rng = self->rng;
    const unsigned n = 1 + rng.below(4);
    // Every element is referenced for the duration of the call, and
    // released when it returns or, if the runtime is destroyed while this
    // coroutine waits, by Episode::run_abandoned (OnUnwind). The lists live
    // on the heap, owned by that release alone: this stack may be dropped
    // without being unwound.
    struct Lists {
        std::vector<tasync_awaitable_t *> arr;
        std::vector<CoRec *> cos;
        std::vector<AwRec *> aws;
    };
    auto holder = std::make_shared<Lists>();
    Lists &lists = *holder;
    OnUnwind release_all([owned = std::move(holder)] {
        for (tasync_awaitable_t *a : owned->arr) tasync_awaitable_release(a);
    });
    std::vector<tasync_awaitable_t *> &arr = lists.arr;
    std::vector<CoRec *> &cos = lists.cos;
    std::vector<AwRec *> &aws = lists.aws;
    bool has_self = false;
    for (unsigned i = 0; i < n; ++i) {
        unsigned r = rng.below(100);
        if (r < 3 && self->kind != CoKind::Main) {
            arr.push_back(tasync_coroutine_awaitable(self->core));
            tasync_awaitable_retain(arr.back());
            cos.push_back(self);
            aws.push_back(nullptr);
            has_self = true;
        } else if (r < 45 && !ep.handles.empty()) {
            CoRec *t = pick(ep, rng, ep.handles);
            if (t == self) t = nullptr;
            if (t == nullptr) continue;
            arr.push_back(tasync_coroutine_awaitable(t->handle));
            tasync_awaitable_retain(arr.back());
            cos.push_back(t);
            aws.push_back(nullptr);
        } else if (r < 75 && !ep.futures.empty()) {
            AwRec *a = ep.futures[rng.below(static_cast<std::uint32_t>(ep.futures.size()))];
            arr.push_back(a->aw);
            tasync_awaitable_retain(a->aw);
            cos.push_back(nullptr);
            aws.push_back(a);
        } else {
            AwRec *a = new_timeout(ep, rng, false);  // adopted: released with the others below
            arr.push_back(a->aw);
            cos.push_back(nullptr);
            aws.push_back(a);
        }
    }
    if (arr.empty()) return "skip";
    AwRec *canc = pick_cancellation(ep, self);
    Pin pin(canc);
    long first_done = -1;
    for (std::size_t i = 0; i < arr.size() && first_done < 0; ++i) {
        if (cos[i] != nullptr ? cos[i] != self && cos[i]->settled : completed_now(ep, aws[i]))
            first_done = static_cast<long>(i);
    }
    const bool fast = has_self || first_done >= 0 || (canc != nullptr && completed_now(ep, canc));
    self->wait = WaitRec{};
    self->wait.any_cos = cos;
    self->wait.any_aws = aws;
    self->wait.cancellation = canc;
    ep.begin_wait(self, WaitKind::AwaitAny);
    if (fast) self->wait.must_cancel = false, self->wait.may_cancel = self->cancel_pending;
    void *e = nullptr;
    int rc = tasync_await_any(ep.rt, arr.data(), arr.size(), canc != nullptr ? canc->aw : nullptr, &e);
    ep.end_wait(self);
    if (has_self) {
        RANDOM_CHECK(ep, rc == TASYNC_ESELF_AWAIT, "C6: await_any including the caller returned " << rc);
    } else if (rc >= 0) {
        RANDOM_CHECK(ep, static_cast<std::size_t>(rc) < arr.size(), "await_any returned index " << rc << " of " << arr.size());
        if (static_cast<std::size_t>(rc) < arr.size()) {
            const std::size_t i = static_cast<std::size_t>(rc);
            if (cos[i] != nullptr) {
                RANDOM_CHECK(ep, cos[i]->state == CoState::Done, "await_any chose " << ep.name(cos[i]) << ", which has not completed");
                cos[i]->outcome_taken = true;
            } else {
                RANDOM_CHECK(ep, completed_now(ep, aws[i]), "await_any chose a" << aws[i]->aid << ", which has not completed");
            }
            if (first_done >= 0 && !self->wait.may_cancel)
                RANDOM_CHECK(ep, rc == first_done, "await_any returned " << rc << " although element " << first_done << " had completed before the call");
        }
        RANDOM_CHECK(ep, !self->wait.must_cancel, "C7: await_any of " << ep.name(self) << " returned " << rc << " although a cancellation was requested");
    } else {
        common_outcome(ep, self, rc, e, canc, "await_any");
        RANDOM_CHECK(ep, rc == -ECANCELED || rc == TASYNC_EAWAIT_CANCELLED, "await_any returned " << rc);
    }
    release_outs(ep, nullptr, e);
    return std::to_string(arr.size()) + " awaitables " + rc_text(rc);
}

std::string op_future_create(Episode &ep, CoRec *self) {
    (void)self;
    if (ep.futures.size() >= Episode::kMaxFutures) return "skip";
    ep.aws.emplace_back();
    AwRec *a = &ep.aws.back();
    a->aid = ep.next_id++;
    a->kind = AwRec::Kind::Future;
    const bool ex = self->rng.chance(50);
    int rc;
    if (ex) {
        // T2: the same future, with its creation location recorded.
        tasync_future_options_t o{};
        o.size = sizeof(o);
        rc = tasync_future_create_ex(ep.rt, &o, &a->aw);
        RANDOM_CHECK(ep, rc == 0 && tasync_future_created_location(a->aw).file != nullptr,
                     "T2: tasync_future_create_ex returned " << rc << " or no creation location");
    } else {
        rc = tasync_future_create(ep.rt, &a->aw);
        RANDOM_CHECK(ep, rc == 0, "tasync_future_create returned " << rc);
    }
    ep.futures.push_back(a);
    return "a" + std::to_string(a->aid) + (ex ? " (ex)" : "");
}

std::string settle_future(Episode &ep, AwRec *f, Rng &rng) {
    int rc;
    std::string what;
    // T2: tasync_future_complete, or the ABI 1.0 functions.
    const bool complete = rng.chance(40);
    void *err = nullptr;
    if (rng.chance(40)) {
        const int kind = rng.chance(15) ? TASYNC_ERROR_CANCELLATION : TASYNC_ERROR_ASYNC;
        Error *e = ep.host.error(kind, "rejection of a" + std::to_string(f->aid));
        rc = complete ? tasync_future_complete(f->aw, nullptr, e, &err) : tasync_future_reject(f->aw, e);
        f->error = e;
        f->failed = true;
        ep.host.release(e);
        what = "rejected";
    } else {
        Value *v = ep.host.value(static_cast<long>(f->aid), "value of a" + std::to_string(f->aid));
        rc = complete ? tasync_future_complete(f->aw, v, nullptr, &err) : tasync_future_resolve(f->aw, v);
        f->value = v;
        ep.host.release(v);
        what = "resolved";
    }
    RANDOM_CHECK(ep, rc == 0 && err == nullptr, "settling future a" << f->aid << " returned " << rc);
    f->completed = true;
    if (rng.chance(10)) {
        int again = tasync_future_resolve(f->aw, nullptr);
        RANDOM_CHECK(ep, again == TASYNC_EBAD_STATE, "settling future a" << f->aid << " twice returned " << again);
    }
    if (rng.chance(10)) {
        Value *v = ep.host.value(0, "second completion of a" + std::to_string(f->aid));
        int again = tasync_future_complete(f->aw, v, nullptr, &err);
        RANDOM_CHECK(ep, again == TASYNC_EFUTURE_COMPLETED && ep.host.is_error(err),
                     "T2: completing future a" << f->aid << " twice returned " << again << " or no error");
        release_outs(ep, nullptr, err);
        ep.host.release(v);
    }
    return "a" + std::to_string(f->aid) + " " + what + (complete ? " (complete)" : "");
}

std::string op_future_settle(Episode &ep, CoRec *self) {
    std::vector<AwRec *> open;
    for (AwRec *a : ep.futures) {
        if (a->kind == AwRec::Kind::Future && !a->completed) open.push_back(a);
    }
    if (open.empty()) return "skip";
    return settle_future(ep, open[self->rng.below(static_cast<std::uint32_t>(open.size()))], self->rng);
}

std::string op_awaitable_release(Episode &ep, CoRec *self) {
    if (ep.futures.empty()) return "skip";
    const std::size_t i = self->rng.below(static_cast<std::uint32_t>(ep.futures.size()));
    AwRec *a = ep.futures[i];
    ep.futures[i] = ep.futures.back();
    ep.futures.pop_back();
    a->held = false;
    tasync_awaitable_release(a->aw);
    return "a" + std::to_string(a->aid);
}

std::string op_cancel(Episode &ep, CoRec *self, bool self_cancel) {
    Rng &rng = self->rng;
    CoRec *t = self;
    if (!self_cancel) {
        t = rng.chance(30) ? pick(ep, rng, ep.unfinished) : pick(ep, rng, ep.handles);
        if (t == nullptr) return "skip";
    }
    if (t->state == CoState::Registered || t->core == nullptr) return "skip";
    Error *err = rng.chance(50) ? ep.host.error(TASYNC_ERROR_CANCELLATION, "cancellation of " + ep.name(t)) : nullptr;
    const bool was_new = t->state == CoState::New;
    const bool takes = t->unfinished() && !t->cancel_requested && !t->finishing;
    int rc = tasync_coroutine_cancel(t->core, err);
    RANDOM_CHECK(ep, rc == 0, "C7: cancelling " << ep.name(t) << " returned " << rc);
    ep.cancel_co(t, err != nullptr ? ep.slot(err, false) : ep.slot(nullptr, true));
    if (err != nullptr) ep.host.release(err);
    if (was_new && takes && t->kind != CoKind::Finally) {  // a finally callback starts anyway (C11)
        RANDOM_CHECK(ep, t->arg_released == 1,
                     "C7: " << ep.name(t) << " was cancelled before it started, but its arg was not released");
    }
    return ep.name(t) + (was_new ? " (not started)" : "") + (takes ? "" : " (no effect)");
}

std::string op_protect_begin(Episode &ep, CoRec *self) {
    int rc = tasync_protect_begin(ep.rt);
    RANDOM_CHECK(ep, rc == 0, "C20: protect_begin returned " << rc);
    if (rc == 0) ++self->protect_depth;
    return "depth " + std::to_string(self->protect_depth);
}

std::string op_protect_end(Episode &ep, CoRec *self) {
    void *e = nullptr;
    int rc = tasync_protect_end(ep.rt, &e);
    if (self->protect_depth == 0) {
        RANDOM_CHECK(ep, rc == TASYNC_EBAD_STATE, "C20: protect_end without a begin returned " << rc);
        release_outs(ep, nullptr, e);
        return rc_text(rc);
    }
    --self->protect_depth;
    const bool deliver = self->protect_depth == 0 && self->cancel_pending;
    if (rc == -ECANCELED) {
        RANDOM_CHECK(ep, deliver || (self->protect_depth == 0 && ep.unseen_cancel_possible(self)),
                     "C20: protect_end of " << ep.name(self) << " delivered a cancellation nobody requested");
        if (!self->cancel_requested) {
            self->cancel_requested = true;
            self->cancel_error = ep.learned_slot();
        }
        RANDOM_CHECK(ep, ep.error_matches(self->cancel_error, e),
                     "C20: protect_end of " << ep.name(self) << " delivered another cancellation error");
        self->cancel_pending = false;
    } else {
        RANDOM_CHECK(ep, rc == 0 && !deliver,
                     "C20: protect_end of " << ep.name(self) << " returned " << rc
                                            << (deliver ? " instead of delivering the pending cancellation" : ""));
    }
    release_outs(ep, nullptr, e);
    return rc_text(rc);
}

std::string op_set_result(Episode &ep, CoRec *self) {
    if (self->kind == CoKind::Main) return "skip";
    Value *v = ep.host.value(static_cast<long>(self->tid), "result of " + ep.name(self));
    tasync_coroutine_set_result(self->core, v);
    ep.host.release(v);
    self->result = v;
    return "#" + std::to_string(v->serial);
}

std::string op_set_error(Episode &ep, CoRec *self) {
    if (self->kind == CoKind::Main) return "skip";
    // An error of the global scope shuts the runtime down (S10, C15): rare
    // on purpose, FailToGlobal does it deliberately.
    if (self->scope == ep.global && !self->must_fail && self->kind != CoKind::GroupTask && self->rng.chance(90))
        return "skip (global)";
    const int kind = self->rng.chance(10) ? TASYNC_ERROR_CANCELLATION : TASYNC_ERROR_ASYNC;
    Error *e = ep.host.error(kind, "error of " + ep.name(self));
    tasync_coroutine_set_error(self->core, e);
    ep.host.release(e);
    self->error = e;
    return "#" + std::to_string(e->serial) + (kind == TASYNC_ERROR_CANCELLATION ? " (a cancellation)" : "");
}

std::string op_release_handle(Episode &ep, CoRec *self) {
    CoRec *t = pick(ep, self->rng, ep.handles);
    if (t == nullptr) return "skip";
    ep.drop_handle(t);
    return ep.name(t);
}

std::string op_coroutine_finally(Episode &ep, CoRec *self) {
    CoRec *t = pick(ep, self->rng, ep.handles);
    if (t == nullptr || ep.unfinished.size() >= Episode::kMaxUnfinished) return "skip";
    ep.fins.emplace_back();
    FinRec *f = &ep.fins.back();
    f->target_co = t;
    f->registered_op = ep.op_index;
    CoRec *cb = ep.new_co(CoKind::Finally, 1, self->rng.fork());
    cb->program = ep.make_program(cb->rng, CoKind::Finally, 1);
    cb->state = CoState::Registered;
    cb->fin = f;
    f->cb = cb;
    tasync_spawn_options_t o = ep.spawn_options(cb, nullptr);
    // C11: on a completed coroutine it runs at once, charged to the
    // coroutine's scope while the core still keeps it (until the coroutine
    // left its stack: a held error, S10), else to nobody. Which of the two
    // is learned from the counts of the nearest scope the tester can query.
    // Without such a scope (the global scope counts the callback as its
    // member either way), the charge is taken to follow a held error that
    // is still held (not one a handler heard of before the completion).
    ScopeRec *probe = nullptr;
    if (t->state == CoState::Done && t->scope != nullptr && !t->zombie) {
        for (ScopeRec *p = t->scope; p != nullptr && !p->is_global; p = p->parent) {
            if (!p->dead && p->queryable()) {
                probe = p;
                break;
            }
        }
    }
    const size_t probe_before = probe != nullptr ? tasync_scope_active_count(probe->core) : 0;
    int rc = tasync_coroutine_on_finally(t->handle, &o);
    RANDOM_CHECK(ep, rc == 0, "C11: on_finally on " << ep.name(t) << " returned " << rc);
    if (t->state == CoState::Done) {
        bool charged = t->scope != nullptr && !t->zombie && t->outcome_failed && t->error != nullptr &&
                       t->error->kind != TASYNC_ERROR_CANCELLATION && errors_flow(t) &&
                       !(t->hold_ended && t->handlers == 0) && !t->heard_at_once && !t->outcome_taken;
        if (probe != nullptr) charged = tasync_scope_active_count(probe->core) > probe_before;
        ep.spawn_finally(f, charged ? t->scope : nullptr);
        if (!t->settled) {
            // Its awaiters wait for this one too (C11).
            cb->holds = t;
            ++t->finals_running;
        }
        // The core spawned it: learn its pointer from the global scope.
        tasync_coroutine_t *buf[64];
        size_t n = tasync_scope_coroutines(ep.global->core, buf, 64);
        if (n > 0 && n <= 64) cb->core = buf[n - 1];
    } else {
        t->finals.push_back(f);
    }
    return ep.name(cb) + " on " + ep.name(t);
}

std::string op_shutdown(Episode &ep, CoRec *self) {
    Error *err = self->rng.chance(50) ? ep.host.error(TASYNC_ERROR_CANCELLATION, "shutdown") : nullptr;
    const int before = ep.shutdown_phase;
    int rc = tasync_runtime_shutdown(ep.rt, err);
    RANDOM_CHECK(ep, rc == 0, "C15: tasync_runtime_shutdown returned " << rc);
    if (before == TASYNC_SHUTDOWN_NONE) ep.start_shutdown(err != nullptr ? ep.slot(err, false) : ep.slot(nullptr, true));
    RANDOM_CHECK(ep, tasync_runtime_shutdown_phase(ep.rt) == (before == TASYNC_SHUTDOWN_NONE ? TASYNC_SHUTDOWN_GRACEFUL : before),
                 "C15: the shutdown phase is " << tasync_runtime_shutdown_phase(ep.rt));
    if (err != nullptr) ep.host.release(err);
    return "phase " + std::to_string(ep.shutdown_phase);
}

std::string op_fail_to_global(Episode &ep, CoRec *self) {
    CoRec *c = ep.new_co(CoKind::Task, 1, self->rng.fork());
    c->program = {Op::Yield, Op::SetError};
    c->must_fail = true;
    tasync_spawn_options_t o = ep.spawn_options(c, tasync_scope_global(ep.rt));
    tasync_coroutine_t *h = nullptr;
    int rc = tasync_spawn(ep.rt, &o, &h, nullptr);
    RANDOM_CHECK(ep, rc == 0, "spawning into the global scope returned " << rc);
    if (rc != 0) return rc_text(rc);
    c->core = h;
    ep.spawned(c, ep.global);
    tasync_coroutine_release(h);
    return ep.name(c);
}

}  // namespace tasync_random
