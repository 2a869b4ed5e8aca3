// How the model follows the runtime: the rules for spawning, finishing,
// cancelling (C7, C8, C20), scope cancellation and disposal (S6, S7, S9) and
// graceful shutdown (C15), applied to the records when the tester acts or
// observes. Rule details still being settled are in expect.hpp.
#include <algorithm>

#include "episode.hpp"
#include "expect.hpp"

namespace tasync_random {

namespace {

template <typename T>
void swap_remove(std::vector<T *> &v, T *x) {
    auto it = std::find(v.begin(), v.end(), x);
    if (it == v.end()) return;
    *it = v.back();
    v.pop_back();
}

}  // namespace

CoRec *Episode::new_co(CoKind kind, int depth, std::uint64_t rng_seed) {
    cos.emplace_back();
    CoRec *c = &cos.back();
    c->tid = next_id++;
    c->kind = kind;
    c->depth = depth;
    c->rng = Rng(rng_seed);
    c->spawn_op = op_index;
    return c;
}

ScopeRec *Episode::new_scope(ScopeRec *parent, tasync_scope_t *core) {
    scopes.emplace_back();
    ScopeRec *s = &scopes.back();
    s->sid = next_id++;
    s->core = core;
    s->parent = parent;
    s->created_op = op_index;
    s->rng = Rng(mix_seed(seed, s->sid));
    if (parent != nullptr) {
        parent->children.push_back(s);
        s->not_safely = parent->not_safely;
    }
    if (core != nullptr) tasync_scope_set_host_data(core, s);
    return s;
}

// A cancellation the model learns without knowing its cause: whatever
// cancellation object is observed first binds it.
ErrSlot *Episode::learned_slot() {
    ErrSlot *s = slot(nullptr, true);
    s->any = true;
    return s;
}

ErrSlot *Episode::slot(Error *e, bool core_made) {
    slots.emplace_back();
    slots.back().e = e;
    slots.back().core_made = core_made;
    return &slots.back();
}

bool Episode::in_subtree(const ScopeRec *s, const ScopeRec *root) const {
    for (const ScopeRec *p = s; p != nullptr; p = p->parent) {
        if (p == root) return true;
    }
    return false;
}

ScopeRec *Episode::scope_of_current() {
    CoRec *c = current();
    if (c == nullptr || c == main || c->scope == nullptr) return global;
    return c->scope;
}

void Episode::spawned(CoRec *c, ScopeRec *s) {
    if (tracing() && c->kind == CoKind::Finally) trace("   model: " + name(c) + " spawned");
    c->scope = s;
    c->state = CoState::New;
    s->coroutines.push_back(c);
    for (ScopeRec *p = s; p != nullptr; p = p->parent) {
        ++p->active;
        ++p->all;
    }
    unfinished.push_back(c);
}

void Episode::zombify(CoRec *c) {
    if (c->zombie || !c->unfinished() || c->finishing || c->scope == nullptr) return;
    c->zombie = true;
    for (ScopeRec *p = c->scope; p != nullptr; p = p->parent) {
        if (--p->active == 0) ++p->zero_active_epoch;
    }
}

void Episode::drop_handle(CoRec *c) {
    if (c->handle == nullptr) return;
    tasync_coroutine_t *h = c->handle;
    c->handle = nullptr;
    swap_remove(handles, c);
    tasync_coroutine_release(h);
}

void Episode::remove_live_scope(ScopeRec *s) { swap_remove(live_scopes, s); }

// Before an operation that walks a subtree: the scopes of root's subtree
// the runtime no longer has (freed when their last reference went) are
// marked dead, so that the model's walk skips them as the runtime's does.
// core_alive: the caller knows the runtime still has root though the
// tester holds no reference to it (a scope whose completion the runtime is
// running). learned: the caller is learning what the runtime did in the
// step just taken (a cancellation, a completion), and the model may not
// have learned yet that the coroutines of a child the runtime freed are
// done; a scope with a coroutine in it is never freed, so the runtime's
// view stands.
void Episode::learn_liveness(ScopeRec *root, bool core_alive, bool learned) {
    if (destroyed || root->core == nullptr || !(root->queryable() || core_alive)) return;
    std::vector<ScopeRec *> alive{root};
    for (std::size_t i = 0; i < alive.size(); ++i) {
        tasync_scope_t *kids[64];
        size_t n = tasync_scope_children(alive[i]->core, kids, 64);
        for (size_t j = 0; j < n && j < 64; ++j) {
            if (ScopeRec *k = scope_rec(kids[j])) alive.push_back(k);
        }
    }
    std::vector<ScopeRec *> todo{root};
    while (!todo.empty()) {
        ScopeRec *s = todo.back();
        todo.pop_back();
        for (ScopeRec *k : s->children) {
            if (k->dead) continue;
            if (std::find(alive.begin(), alive.end(), k) == alive.end()) {
                RANDOM_CHECK(*this, !(k->owned || k->observed || (k->all > 0 && !learned)),
                             "S13: " << name(k) << " is gone from its parent's children while it is referenced");
                k->dead = true;
                continue;
            }
            todo.push_back(k);
        }
    }
}

// The coroutine completed: it leaves its scope, whose counts and completion
// follow; its finally callbacks, then those of scopes it completed, are
// spawned (in that order, as the core does).
void Episode::finished(CoRec *c) {
    if (c->state == CoState::Done) return;
    if (tracing()) trace("   model: " + name(c) + " completed");
    c->state = CoState::Done;
    c->done_seq = ++done_counter;
    c->wait = WaitRec{};
    swap_remove(unfinished, c);
    swap_remove(parked, c);
    // X2: a coroutine's own context is emptied when it completes.
    for (std::size_t i = 0; i < ctx_entries.size();) {
        if (ctx_entries[i].co == c) ctx_entries.erase(ctx_entries.begin() + static_cast<long>(i));
        else ++i;
    }
    // C11: its finally callbacks start before its awaiters resume, charged
    // to its scope (not a zombie's: its cleanup blocks nothing, S9), before
    // it leaves the scope, so the scope does not complete in between.
    for (FinRec *f : c->finals) {
        spawn_finally(f, c->zombie ? nullptr : c->scope);
        f->cb->holds = c;
        ++c->finals_running;
    }
    if (c->finals_running == 0) settle(c);
    if (CoRec *owner = c->holds) {
        // A finally callback finished: its owner's awaiters may resume.
        c->holds = nullptr;
        if (--owner->finals_running == 0) settle(owner);
    }
    ScopeRec *s = c->scope;
    if (s == nullptr) return;
    auto it = std::find(s->coroutines.begin(), s->coroutines.end(), c);
    if (it != s->coroutines.end()) s->coroutines.erase(it);
    leave_scopes(s, c->zombie);
    if (ScopeRec *ch = c->charged) {
        // A finally callback's charge goes after its own scope's count.
        c->charged = nullptr;
        leave_scopes(ch, false, global);
    }
}

void Episode::settle(CoRec *c) {
    if (c->settled) return;
    c->settled = true;
    pool_owner_settled(c);  // what it still held came back (T3)
    if (c->group != nullptr) {
        GroupRec *g = c->group;
        g->completed.push_back(c);
        ++g->completed_epoch;
        if (c->held) c->held = false;
        // A free slot starts the next task the group held back, in spawn
        // order (G1); a group that let go starts none.
        if (g->concurrency != 0 && !g->let_go) {
            std::size_t running = 0;
            for (CoRec *t : g->tasks) running += !t->settled && !t->held;  // a slot is freed when the task settles (C11)
            for (CoRec *t : g->tasks) {
                if (running >= g->concurrency) break;
                if (t->held && t->unfinished()) {
                    t->held = false;
                    ++running;
                }
            }
        }
    }
}

void Episode::spawn_finally(FinRec *f, ScopeRec *charge_to) {
    f->must_run = true;
    CoRec *cb = f->cb;
    if (cb->state != CoState::Registered) return;
    spawned(cb, global);
    cb->protect_depth = 1;  // C11: it runs as inside protect(), C20
    // The completion that spawned it and a shutdown phase were learned in
    // one operation: the core may have spawned it before the phase's sweep
    // (an error moving up completes a scope on its way to the global one).
    if (shutdown_learned_op == op_index) cb->cancel_maybe = true;
    if (charge_to == nullptr || charge_to->is_global) return;
    cb->charged = charge_to;
    // The global scope counts it once, as its member.
    for (ScopeRec *p = charge_to; p != nullptr && !p->is_global; p = p->parent) {
        ++p->active;
        ++p->all;
    }
}

void Episode::complete_scope(ScopeRec *s) {
    if (s->completed) return;
    if (tracing()) trace("   model: " + name(s) + " completed");
    s->completed = true;
    s->dispose_timer = false;
    for (FinRec *f : s->finals) spawn_finally(f, s);
}

void Episode::leave_scopes(ScopeRec *s, bool zombie, ScopeRec *stop) {
    for (ScopeRec *p = s; p != nullptr && p != stop; p = p->parent) {
        const bool no_active = !zombie && --p->active == 0;
        const bool none = --p->all == 0;
        if (none && p->closed && !p->completed) {
            // It completes now; its finally callbacks are charged to it, so
            // its waiters wait for them too (C11, S12).
            complete_scope(p);
            if (p->all != 0) continue;
        }
        if (no_active) ++p->zero_active_epoch;
        if (none) ++p->zero_all_epoch;
    }
}

// A cancellation request (C7, C8, C20): the first one wins.
void Episode::cancel_co(CoRec *c, ErrSlot *err) {
    if (!c->unfinished()) return;
    if (c->finishing) {
        // Its outcome is final: a cancellation only ends the wait a handler
        // is in.
        if (c->wait.active && c->protect_depth == 0 && !c->wait.keeps_result) c->wait.must_cancel = true;
        return;
    }
    if (c->cancel_requested) return;
    if (c->kind == CoKind::Main && in_final_run) return;
    if (tracing()) trace("   model: " + name(c) + " cancelled");
    c->cancel_requested = true;
    // A cancellation the model could not see may have come first: then any
    // cancellation error may be the one it carries.
    c->cancel_error = unseen_cancel_possible(c) ? learned_slot() : err;
    if (c->state == CoState::New && c->kind == CoKind::Finally) {
        // C11: a finally callback always starts; the cancellation waits
        // (it runs protected).
        c->cancel_pending = true;
        return;
    }
    if (c->state == CoState::New) {
        // C7: it never starts.
        c->cancelled_before_start = true;
        c->outcome_known = true;
        c->outcome_failed = true;
        // The cancellation it ends with: a learned one when one the model
        // could not see may have come first (a released group letting go
        // of the tasks it held, G1, before this sweep).
        c->outcome_error = c->cancel_error;
        finished(c);
        return;
    }
    if (!c->wait.active || c->wait.kind == WaitKind::Handler) {
        c->cancel_pending = true;  // delivered at its next suspension point
        return;
    }
    if (c->protect_depth > 0 || c->wait.keeps_result) {
        c->cancel_pending = true;
        if (c->wait.keeps_result && c->protect_depth == 0) c->wait.may_cancel = true;
        return;
    }
    c->wait.must_cancel = true;
}

// S6: children first, then the scope's own coroutines, zombies included.
void Episode::cancel_scope(ScopeRec *s, ErrSlot *err, bool explicit_call, bool learned) {
    (void)explicit_call;
    if (s->cancelled) return;
    if (tracing()) trace("   model: " + name(s) + " cancelled");
    s->cancelled = true;
    s->closed = true;
    s->cancel_error = err;
    s->dispose_timer = false;
    std::vector<ScopeRec *> kids = s->children;
    for (ScopeRec *k : kids) {
        if (!k->dead) cancel_scope(k, learned ? learned_slot() : err, false, learned);
    }
    // Learned, the cancellation may have come in the same step as another
    // that reached some of its coroutines first (a shutdown sweep before a
    // dispose timer, say): each coroutine's error is learned on its own.
    std::vector<CoRec *> members = s->coroutines;
    for (CoRec *c : members) cancel_co(c, learned ? learned_slot() : err);
    if (s->all == 0) complete_scope(s);
}

// A scope the tester no longer holds is not read by learn_escalations; a
// coroutine the model has in it still is (the runtime keeps a coroutine's
// scope alive while the coroutine is in it), and so is the scope through
// it. A cancellation found there that no dispose made (S7 marks what it
// disposes before it cancels) is learned.
void Episode::learn_unseen_cancel(ScopeRec *s) {
    if (s->cancelled || s->queryable() || s->is_global || s->dead || s->core == nullptr || destroyed) return;
    for (CoRec *c : s->coroutines) {
        if (c->freed || c->core == nullptr || !c->unfinished() || tasync_coroutine_scope(c->core) != s->core) continue;
        const uint32_t f = tasync_scope_flags(s->core);
        if (!(f & TASYNC_SCOPE_CANCELLED) || (f & TASYNC_SCOPE_DISPOSED)) return;
        RANDOM_CHECK(*this, scope_unseen_cancel_possible(s),
                     "S6: " << name(s) << " was cancelled, by nobody the tester knows of");
        learn_liveness(s, true, true);  // alive: a coroutine of the runtime's is in it
        cancel_scope(s, learned_slot(), false, true);
        return;
    }
}

bool Episode::scope_readable(ScopeRec *s) {
    if (s->queryable()) return true;
    if (s->dead || s->core == nullptr || s->is_global || destroyed) return false;
    for (CoRec *c : s->coroutines) {
        if (!c->freed && c->core != nullptr && c->unfinished() && tasync_coroutine_scope(c->core) == s->core) return true;
    }
    for (ScopeRec *k : s->children) {
        if (scope_readable(k)) return true;
    }
    return false;
}

// S7 (and S8 for TASYNC_DISPOSE_ON_RELEASE).
// The scopes an error moving up went through, from `from` up to `top`,
// cancelled in the order it reached them (S10): each one's walk (S6) runs
// while its parent is still open, so what completes there (a coroutine that
// never started, a child scope and its finally callbacks, C11) does so
// before the parent's completion is decided.
void Episode::cancel_upwards(ScopeRec *from, ScopeRec *top, const char *why) {
    for (ScopeRec *p = from; p != nullptr; p = p->parent) {
        if (!p->cancelled) {
            if (tracing()) trace("   model: " + name(p) + " cancelled by " + why);
            learn_liveness(p, false, true);
            cancel_scope(p, learned_slot(), false, true);
        }
        if (p == top) break;
    }
}

void Episode::dispose_scope(ScopeRec *s, int strategy, std::uint64_t timeout_ns, std::uint64_t started_ns) {
    if (s->disposed) return;
    // A scope the tester released may have been cancelled where the model
    // could not see it (an error moving up, S10): the runtime's dispose
    // skips it then, its coroutines do not become zombies.
    learn_unseen_cancel(s);
    // The core's dispose first lets the errors nobody received in s move
    // up (S10): only a scope that failed before its dispose holds such
    // errors, and then the dispose skips it (failed, not disposed; one
    // that fails later was disposed first). One that reaches the global
    // scope starts the shutdown there, whose sweep may complete scopes (s's
    // parent, say, its coroutines gone while s and its siblings are still
    // open) before s and the rest are disposed.
    const bool readable = scope_readable(s);
    if (error_may_flow() && readable) {
        const uint32_t f = tasync_scope_flags(s->core);
        if ((f & TASYNC_SCOPE_FAILED) && !(f & TASYNC_SCOPE_DISPOSED)) {
            // On its way up the error cancelled every scope it went through
            // (no handler there) before it reached the global scope: those
            // cancellations, not the sweep, reached their coroutines first.
            ScopeRec *top = nullptr;
            for (ScopeRec *p = s->parent; p != nullptr && !p->is_global; p = p->parent) {
                if (p->queryable() && !p->cancelled && (tasync_scope_flags(p->core) & TASYNC_SCOPE_CANCELLED)) top = p;
            }
            // The sweep of a shutdown the error started may have come
            // before or after what those cancellations spawned (finally
            // callbacks of scopes they completed, C11): only the coroutines
            // known before them are surely swept.
            // Within one observation of several let-gos, none of what they
            // spawned is (sync, known_before_let_go).
            const std::vector<CoRec *> known(known_before_let_go != nullptr ? *known_before_let_go : unfinished);
            if (top != nullptr) cancel_upwards(s->parent, top, "an error a dispose let move up");
            // In a group's let-go the errors of its tasks flow after its
            // scope's dispose (G1): a shutdown phase seen now may have been
            // started by them, after the dispose made its coroutines
            // zombies, so it is learned after the let-go (sync).
            if (known_before_let_go == nullptr) learn_shutdown_phase(known);
        }
    }
    // A scope an error moving up during this very dispose cancelled after
    // the dispose marked it (S10 inside S7) is disposed all the same: the
    // runtime's flags say which. So is a child the dispose reached before
    // the error that cancelled its parent moved up from a later child: its
    // coroutines became zombies before that cancellation reached them. The
    // tester may no longer hold it; those zombies keep it readable.
    if (s->cancelled && !(readable && (tasync_scope_flags(s->core) & TASYNC_SCOPE_DISPOSED))) return;
    // The core first lets the errors nobody received in s move up (S10):
    // one that cancels s ends the dispose there, before s is marked and
    // before its children are disposed. The call has returned when the
    // model applies it, so the flags say whether that happened; the
    // cancellation itself is learned by learn_escalations.
    if (!s->cancelled && error_may_flow() && readable) {
        const uint32_t f = tasync_scope_flags(s->core);
        if ((f & TASYNC_SCOPE_CANCELLED) && !(f & TASYNC_SCOPE_DISPOSED)) return;
    }
    if (strategy == TASYNC_DISPOSE_ON_RELEASE) strategy = s->not_safely ? TASYNC_DISPOSE_CANCEL : TASYNC_DISPOSE_SAFELY;
    s->disposed = true;
    s->closed = true;
    std::vector<ScopeRec *> kids = s->children;
    for (ScopeRec *k : kids) {
        if (k->dead) continue;
        const bool was_cancelled = k->cancelled;
        dispose_scope(k, strategy, timeout_ns, started_ns);
        // A child's dispose first lets the errors nobody received in it
        // move up (S10): one that cancels an ancestor there (no handler)
        // cuts the child's dispose short, before the child is marked
        // disposed, and the cancellation walks the subtree at that very
        // moment: the children not disposed yet are cancelled instead, and
        // what completes in the walk (a child scope's finally callbacks,
        // charged to it, C11) is there before this scope's completion is
        // decided. Learned here, from the flags, in the runtime's order.
        if (was_cancelled || !scope_readable(k) || !error_may_flow()) continue;
        const uint32_t kf = tasync_scope_flags(k->core);
        if (!(kf & TASYNC_SCOPE_CANCELLED) || (kf & TASYNC_SCOPE_DISPOSED)) continue;
        ScopeRec *top = k;
        for (ScopeRec *p = k->parent; p != nullptr && in_subtree(p, s); p = p->parent) {
            if (p->queryable() && !p->cancelled && (tasync_scope_flags(p->core) & TASYNC_SCOPE_CANCELLED)) top = p;
        }
        if (!top->cancelled) cancel_upwards(k, top, "an error a dispose let move up");
    }
    if (strategy == TASYNC_DISPOSE_CANCEL) {
        cancel_scope(s, slot(nullptr, true), false);
        return;
    }
    std::vector<CoRec *> members = s->coroutines;
    for (CoRec *c : members) zombify(c);
    if (strategy == TASYNC_DISPOSE_AFTER_TIMEOUT && s->all > 0) {
        s->dispose_timer = true;
        // The earliest the core's timer can be due.
        s->dispose_deadline = (started_ns != 0 ? started_ns : now()) + timeout_ns;
    }
    if (s->all == 0) complete_scope(s);
}

// G1: the released group let go. In the core's order: the tasks it held
// back complete cancelled without starting, the running ones leave it as
// zombies of its scope (which is disposed safely, its children first), and
// the errors no reader handled flow from its scope (counted as candidates
// when it was released).
void Episode::learn_let_go(GroupRec *g) {
    // A scope the model knows to be disposed (its parent's dispose, say)
    // says nothing: then the tasks it held back are learned one by one
    // when they complete without starting (unseen_cancel_possible).
    if (!g->released || g->let_go || !g->scope_ref || g->scope->disposed || failed || destroyed) return;
    if (!(tasync_scope_flags(g->scope->core) & TASYNC_SCOPE_DISPOSED)) return;
    if (tracing()) trace("   model: g" + std::to_string(g->gid) + " let go");
    g->let_go = true;
    for (CoRec *t : g->tasks) {
        if (t->held && t->state == CoState::New && !t->cancel_requested) cancel_co(t, learned_slot());
    }
    // Its scope's children the runtime freed (released with nothing in
    // them, their finally callbacks with them) are not in the dispose's
    // walk; one freed during the let-go completed first, and its finally
    // callbacks were learned as the runtime spawned them
    // (learn_finally_spawned). The model holds the group's scope
    // (scope_ref).
    learn_liveness(g->scope, true, true);
    dispose_scope(g->scope, TASYNC_DISPOSE_SAFELY, 0);
}

// Cancels c in a shutdown sweep, or only allows it when c is not among
// the known coroutines (see start_shutdown in episode.hpp).
void Episode::sweep_cancel(CoRec *c, ErrSlot *err, const std::vector<CoRec *> *known) {
    if (known != nullptr && std::find(known->begin(), known->end(), c) == known->end()) {
        c->cancel_maybe = true;
        return;
    }
    cancel_co(c, err);
}

// C15: every unfinished coroutine, zombies and the main one included.
void Episode::start_shutdown(ErrSlot *err, const std::vector<CoRec *> *known) {
    if (shutdown_phase != TASYNC_SHUTDOWN_NONE) return;
    shutdown_phase = TASYNC_SHUTDOWN_GRACEFUL;
    shutdown_slot = err;
    std::vector<CoRec *> all = unfinished;
    std::sort(all.begin(), all.end(), [](const CoRec *a, const CoRec *b) { return a->tid < b->tid; });
    cancel_co(main, err);
    for (CoRec *c : all) sweep_cancel(c, err, known);
}

// C15 phase two: every unfinished coroutine is cancelled with the
// shutdown's error (those spawned since the graceful phase too), and waits
// end by force.
void Episode::forced_shutdown(const std::vector<CoRec *> *known) {
    if (shutdown_slot == nullptr) shutdown_slot = slot(nullptr, true);
    std::vector<CoRec *> all = unfinished;
    std::sort(all.begin(), all.end(), [](const CoRec *a, const CoRec *b) { return a->tid < b->tid; });
    if (!in_final_run) cancel_co(main, shutdown_slot);
    for (CoRec *c : all) sweep_cancel(c, shutdown_slot, known);
    forced_wakeups();
    // Callback timers stop keeping the program alive.
    for (TimerRec *t : live_timers) t->ref = false;
}

// C14, C15 phase two, S9's last stage: waits end by force, protected or not.
void Episode::forced_wakeups() {
    force_anytime = true;
    for (CoRec *c : unfinished) {
        if (c->wait.active) c->wait.forced = true;
    }
    if (main->wait.active) main->wait.forced = true;
}

}  // namespace tasync_random
