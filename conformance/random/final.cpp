// The end of an episode: the end of the program (tasync_runtime_run, which
// must return and leave nothing unfinished), the release of everything the
// tester holds, the runtime's destruction, and the checks that nothing was
// lost or leaked: every coroutine freed once with its arg released once,
// every handler's data released, no host object alive.
#include <unistd.h>

#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

void Episode::final_phase() {
    trace("-- the end of the program");
    Rng rng(mix_seed(seed, 0xe17d));
    const bool abrupt = rng.chance(8);
    // Repeating timers would keep the program alive for ever.
    for (TimerRec *t : std::vector<TimerRec *>(live_timers)) {
        if (t->repeat_ns != 0 && t->armed && t->action < 100) {
            tasync_timer_stop(t->t);
            t->armed = false;
        }
    }
    if (!abrupt && !failed) {
        if (rng.chance(75)) {
            for (AwRec *a : std::vector<AwRec *>(futures)) {
                if (a->kind == AwRec::Kind::Future && !a->completed) settle_future(*this, a, rng);
            }
            for (CoRec *c : std::vector<CoRec *>(parked)) resume_parked(*this, c, rng);
        }
        // Coroutines waiting on a channel or a pool are let go (T1, T3).
        end_chans_and_pools();
        // Readers blocked on a pipe see the end of the stream.
        for (PipeRec *p : open_pipes) {
            if (!p->write_closed && !p->writer_busy) close_pipe(*this, p, true);
        }
        check_world();
        trace("-- tasync_runtime_run");
        in_final_run = true;
        const bool deadlock_before = deadlock_seen;
        deadlock_seen = false;
        const long candidates = error_candidates;
        int rc = tasync_runtime_run(rt);
        in_final_run = false;
        trace("-- tasync_runtime_run returned " + std::to_string(rc));
        // The program ended: the main coroutine's cancellation is over.
        main->cancel_requested = main->cancel_pending = false;
        main->cancel_error = nullptr;
        sync();
        // S12: the global scope completes at the end of the program, when
        // it has completion callbacks.
        if (!global->finals.empty()) global->completed = true;
        RANDOM_CHECK(*this, rc == 0 || (rc == TASYNC_EDEADLOCK && deadlock_seen) ||
                                (rc == TASYNC_EFAILED && (candidates > 0 || error_candidates > 0)),
                     "C3: tasync_runtime_run returned " << rc);
        deadlock_seen = deadlock_seen || deadlock_before;
        RANDOM_CHECK(*this, unfinished.empty(),
                     "C3: tasync_runtime_run returned while " << unfinished.size() << " coroutines are unfinished, "
                                                              << (unfinished.empty() ? "" : name(unfinished[0])) << " first");
        for (FinRec &f : fins) {
            RANDOM_CHECK(*this, !f.must_run || f.cb->entered || f.cb->cancelled_before_start,
                         "C11/S12: the finally callback " << name(f.cb) << " never ran although its target completed");
        }
        void *e = tasync_runtime_take_error(rt);
        if (e != nullptr) {
            RANDOM_CHECK(*this, host.is_error(e), "tasync_runtime_take_error returned something else than an error");
            if (host.is_error(e)) host.release(static_cast<Error *>(e));
        }
        check_world();
    }
    // Everything the tester holds goes.
    trace("-- releasing what the tester holds");
    // Each leaves the list before its release: a release may free
    // coroutines (a group awaitable's was its group's last reference: the
    // group lets go, G1), whose host hook observes the runtime, and an
    // observation must not read an awaitable already released.
    std::vector<AwRec *> held_futures;
    held_futures.swap(futures);
    for (AwRec *a : held_futures) {
        a->held = false;
        tasync_awaitable_release(a->aw);
    }
    release_chans_and_pools();
    for (CoRec *c : std::vector<CoRec *>(handles)) drop_handle(c);
    for (GroupRec *g : std::vector<GroupRec *>(live_groups)) release_group(*this, g);
    for (ScopeRec *s : std::vector<ScopeRec *>(live_scopes)) {
        if (s->owned) release_scope(*this, s, !abrupt && rng.chance(50));
    }
    for (ScopeRec *s : std::vector<ScopeRec *>(live_scopes)) {
        if (s->observed && (s->group == nullptr || s->group->scope_ref)) {
            s->observed = false;
            if (s->group != nullptr) s->group->scope_ref = false;
            tasync_scope_release(s->core);
        }
    }
    live_scopes.clear();
    const bool leave_timers = abrupt && rng.chance(50);
    if (!leave_timers) {
        for (TimerRec *t : std::vector<TimerRec *>(live_timers)) destroy_timer(*this, t);
    }
    if (!abrupt && !failed && !unfinished.empty()) {
        // Releases may spawn (completion callbacks) or escalate: the
        // program runs once more.
        trace("-- tasync_runtime_run again");
        in_final_run = true;
        tasync_runtime_run(rt);
        in_final_run = false;
        main->cancel_requested = main->cancel_pending = false;
        sync();
        RANDOM_CHECK(*this, unfinished.empty(), "C3: the second tasync_runtime_run left coroutines unfinished");
        void *e = tasync_runtime_take_error(rt);
        if (e != nullptr && host.is_error(e)) host.release(static_cast<Error *>(e));
    }
    trace(abrupt ? "-- tasync_runtime_destroy with work left" : "-- tasync_runtime_destroy");
    destroyed = true;  // from here on, host hooks come from the teardown
    tasync_runtime_destroy(rt);
    run_abandoned();
    if (leave_timers) {
        // The runtime closed them (runtime.h); the tester no longer may.
        for (TimerRec *t : live_timers) t->destroyed = true;
        live_timers.clear();
    }
    for (PipeRec &p : pipes) {
        if (!p.closed) close_pipe(*this, &p, false);
    }
}

// The operations of coroutines the destroy freed suspended never returned:
// what they hold (awaitables survive detached until released, runtime.h)
// is released here.
void Episode::run_abandoned() {
    while (!unwinds.empty()) {
        std::function<void()> action = std::move(unwinds.front());
        unwinds.pop_front();
        action();
    }
}

void Episode::teardown_checks() {
    if (failed) return;
    RANDOM_CHECK(*this, host.live_values() == 0 && host.live_errors() == 0,
                 "leak: " << host.live_values() << " values and " << host.live_errors()
                          << " errors alive after tasync_runtime_destroy:\n"
                          << host.describe_live(20));
    for (CoRec &c : cos) {
        if (failed) break;
        if (c.kind == CoKind::Main) {
            RANDOM_CHECK(*this, c.freed, "the main coroutine's host data was never freed");
            continue;
        }
        if (c.spawn_failed) continue;
        if (c.state == CoState::Registered) {
            RANDOM_CHECK(*this, c.arg_released == 1 && !c.entered,
                         "the never-spawned finally callback " << name(&c) << " had its arg released " << c.arg_released
                                                               << " times");
            continue;
        }
        RANDOM_CHECK(*this, c.arg_released == 1, name(&c) << "'s arg was released " << c.arg_released << " times");
        RANDOM_CHECK(*this, c.freed, name(&c) << " was never freed (coroutine_free)");
    }
    for (HandlerRec &h : handlers) {
        if (failed) break;
        if (h.installed) RANDOM_CHECK(*this, h.released == 1, "an exception handler's data was released " << h.released << " times");
    }
    for (auto &o : offloads) {
        if (failed) break;
        if (o->runs_at_return >= 0)
            RANDOM_CHECK(*this, o->runs.load() == o->runs_at_return, "offloaded work ran after tasync_offload returned");
    }
}

}  // namespace tasync_random
