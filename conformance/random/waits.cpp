// Around every call that may suspend: what the model expects of its end.
// A cancellation requested while a coroutine waits (or pending when it
// suspends, outside protect sections) must end that wait with -ECANCELED
// and the coroutine's cancellation error (C7, C8, C20); a wait must not end
// with -ECANCELED without one.
#include "episode.hpp"
#include "expect.hpp"

namespace tasync_random {

void Episode::begin_wait(CoRec *self, WaitKind kind) {
    WaitRec &w = self->wait;
    w.kind = kind;
    w.active = true;
    w.started_op = op_index;
    w.protected_wait = self->protect_depth > 0;
    w.forced = force_anytime;
    if (self->cancel_pending && self->protect_depth == 0) {
        if (w.keeps_result) w.may_cancel = true;
        else w.must_cancel = true;
    }
    if (kind == WaitKind::Park) parked.push_back(self);
}

void Episode::end_wait(CoRec *self) {
    // What happened while it waited is learned first: a cancellation the
    // model learns now arrived during the wait.
    sync();
    self->wait.active = false;
    if (self->wait.kind == WaitKind::Park) {
        for (std::size_t i = 0; i < parked.size(); ++i) {
            if (parked[i] == self) {
                parked[i] = parked.back();
                parked.pop_back();
                break;
            }
        }
    }
}

// True when the model allows the wait that just ended to end cancelled.
bool Episode::cancel_allowed(CoRec *self) {
    const WaitRec &w = self->wait;
    if (w.must_cancel || w.may_cancel || w.forced) return true;
    return unseen_cancel_possible(self);
}

// A cancellation the model cannot see coming: forced wake-ups, a dispose
// timer that may have fired, or an unhandled error (S10) that may have
// failed a scope of the chain the tester cannot observe.
bool Episode::unseen_cancel_possible(CoRec *c) {
    if (force_anytime || c->cancel_maybe) return true;
    // S9: once the program ended, zombies get zombie_timeout_ns and are then
    // cancelled (the model does not keep that clock).
    if (in_final_run && c->zombie) return true;
    // A released group lets go when its last reference goes (G1): the tasks
    // it held back are cancelled then. Learned from its scope's flags unless
    // the scope was disposed already (learn_let_go).
    if (c->held && c->group != nullptr && c->group->released && !c->group->let_go) return true;
    return scope_unseen_cancel_possible(c->scope);
}

bool Episode::scope_unseen_cancel_possible(ScopeRec *from) {
    for (ScopeRec *s = from; s != nullptr; s = s->parent) {
        if (s->maybe_cancelled || (s->dispose_timer && now() >= s->dispose_deadline)) return true;
        if (!s->queryable() && !s->is_global && error_may_flow()) return true;
    }
    return false;
}

// rc is the code a suspending call returned, err its error (borrowed).
// Checks the cancellation side of the outcome; the caller checks the rest.
void Episode::expect_cancel_outcome(CoRec *self, int rc, void *err, const char *what) {
    WaitRec &w = self->wait;
    const std::string n = name(self);
    if (rc == -ECANCELED) {
        RANDOM_CHECK(*this, cancel_allowed(self),
                     "C7: " << what << " of " << n << " ended cancelled, but nobody cancelled it");
        if (!self->cancel_requested) {
            // A forced wake-up (C14, C15) or a cancellation the model could
            // not attribute: learn it.
            self->cancel_requested = true;
            self->cancel_error = learned_slot();
        }
        RANDOM_CHECK(*this, err == nullptr || error_matches(self->cancel_error, err),
                     "C7: " << what << " of " << n << " ended with a cancellation error other than its own: "
                            << describe(err) << ", the model expects " << describe(self->cancel_error));
        self->cancel_pending = false;
        return;
    }
    if (w.must_cancel && !failed) {
        RANDOM_CHECK(*this, false,
                     "C7: " << what << " of " << n << " returned " << rc
                            << " although a cancellation was requested while it waited (or was pending when it began)");
    }
}

}  // namespace tasync_random

namespace tasync_random {

// The runtime says s is closed where the model has it open: possible only
// when something the model could not see cancelled it (then learned).
bool Episode::learn_closed(ScopeRec *s) {
    if (s->closed) return true;
    if (!scope_unseen_cancel_possible(s)) return false;
    learn_liveness(s, false, true);
    cancel_scope(s, learned_slot(), false, true);
    return true;
}

}  // namespace tasync_random
