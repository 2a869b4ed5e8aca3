// An episode's life (create, main program, the end of the program, destroy)
// and the observation side of the model: the host hooks, sync() (learning
// what the model does not predict) and check_world() (comparing coroutines,
// scopes and groups with the model after every operation).
#include "episode.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <thread>

#include "expect.hpp"

namespace tasync_random {

namespace {

constexpr std::size_t kTraceLines = 120;

const char *state_name(CoState s) {
    switch (s) {
        case CoState::Registered: return "registered";
        case CoState::New: return "new";
        case CoState::Running: return "running";
        case CoState::Ending: return "ending";
        case CoState::Done: return "done";
    }
    return "?";
}

uint32_t wait_kind_of(WaitKind k) {
    switch (k) {
        case WaitKind::Park: return TASYNC_WAIT_PARK;
        case WaitKind::AwaitCoroutine:
        case WaitKind::AwaitAwaitable:
        case WaitKind::AwaitAny:
        case WaitKind::AwaitMany: return TASYNC_WAIT_AWAIT;
        case WaitKind::Delay: return TASYNC_WAIT_DELAY;
        case WaitKind::Fd: return TASYNC_WAIT_FD;
        case WaitKind::Op: return TASYNC_WAIT_OP;  // or FD when the core emulates the operation
        case WaitKind::Offload: return TASYNC_WAIT_OFFLOAD;
        case WaitKind::Scope:
        case WaitKind::ScopeAfterCancel: return TASYNC_WAIT_SCOPE;
        case WaitKind::GroupNext: return TASYNC_WAIT_GROUP;
        case WaitKind::ChanSend: return TASYNC_WAIT_CHANNEL_SEND;
        case WaitKind::ChanRecv: return TASYNC_WAIT_CHANNEL_RECV;
        case WaitKind::ChanOp: return TASYNC_WAIT_AWAIT;
        case WaitKind::PoolAcquire: return TASYNC_WAIT_POOL;
        default: return TASYNC_WAIT_NONE;
    }
}

}  // namespace

Episode::Episode(const Options &o, std::uint64_t s) : opts(o), seed(s), host(this) {}

Episode::~Episode() {
    if (rt != nullptr && !destroyed) tasync_runtime_destroy(rt);
    if (on_clock_) the_clock().end_episode();
    run_abandoned();
    for (PipeRec &p : pipes) {
        if (p.rfd >= 0) close(p.rfd);
        if (p.wfd >= 0) close(p.wfd);
    }
}

std::uint64_t Episode::now() { return rt != nullptr && !destroyed ? tasync_runtime_now(rt) : 0; }

// Durations are virtual (clock.hpp): they cost no wall-clock time, and
// what they decide is the order of timers, waits, offloaded work and the
// zombie timeout (1 ms) around them. Equal ones are frequent, so that ties
// (which the runtime breaks by the order timers were armed) are common.
std::uint64_t Episode::duration(Rng &rng) {
    switch (rng.below(8)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return 10000;     // 10 us
        case 3: return 50000;     // 50 us
        case 4: return 200000;    // 200 us
        case 5: return 800000;    // 800 us
        case 6: return 3000000;   // 3 ms: past the zombie timeout
        default: return 1000000;  // 1 ms: the zombie timeout itself
    }
}

std::string Episode::name(const CoRec *c) const {
    if (c == nullptr) return "-";
    if (c->kind == CoKind::Main) return "main";
    return (c->kind == CoKind::Finally ? "f" : c->kind == CoKind::GroupTask ? "t" : "c") + std::to_string(c->tid);
}

std::string Episode::name(const ScopeRec *s) const {
    if (s == nullptr) return "-";
    if (s->is_global) return "global";
    return (s->group != nullptr ? "gs" : "s") + std::to_string(s->sid);
}

CoRec *Episode::rec_of(tasync_coroutine_t *co) {
    if (co == nullptr) return nullptr;
    return static_cast<CoRec *>(tasync_coroutine_host_data(co));
}

ScopeRec *Episode::scope_rec(tasync_scope_t *s) {
    if (s == nullptr) return nullptr;
    return static_cast<ScopeRec *>(tasync_scope_host_data(s));
}

CoRec *Episode::current() {
    if (rt == nullptr || destroyed) return nullptr;
    return rec_of(tasync_coroutine_current(rt));
}

// ------------------------------------------------------------------ failure

void Episode::trace(const std::string &line) {
    if (opts.verbose) std::fprintf(stderr, "%s\n", line.c_str());
    if (opts.replay_check || opts.fingerprints) {
        std::uint64_t h = 0xcbf29ce484222325ull ^ the_clock().now();  // FNV-1a
        for (unsigned char ch : line) h = (h ^ ch) * 0x100000001b3ull;
        fingerprint_.push_back(h);
        fingerprint_ops_.push_back(op_index);
    }
    std::lock_guard<std::mutex> lock(trace_mu_);
    if (!opts.trace_all && trace_.size() >= kTraceLines) trace_.pop_front();
    trace_.push_back(line);
}

std::string Episode::report(const std::string &what) {
    std::ostringstream os;
    os << "\n== tasync random tester: " << what << "\n";
    os << "   backend " << opts.backend << ", episode seed " << seed << ", at operation " << op_index << " of "
       << budget << "\n";
    os << "   replay: TASYNC_TEST_BACKEND=" << opts.backend << " TASYNC_BACKEND_DIR=" << opts.backend_dir << " "
       << opts.program << " --episode-seed=" << seed << " --episode-ops=" << budget << "\n";
    os << "   last operations (oldest first):\n";
    {
        std::lock_guard<std::mutex> lock(trace_mu_);
        for (const std::string &l : trace_) os << "     " << l << "\n";
    }
    os << "   last warnings:\n";
    for (const std::string &w : host.recent_warnings()) {
        std::string one = w.substr(0, 300);
        std::replace(one.begin(), one.end(), '\n', '|');
        os << "     " << one << "\n";
    }
    return os.str();
}

void Episode::crash_report(int sig) {
    if (reported_.load()) return;  // the hang's abort: reported already
    std::string r = report("CRASH: fatal signal " + std::to_string(sig));
    std::fputs(r.c_str(), stderr);
    std::fflush(stderr);
}

void Episode::fail(const std::string &what) {
    if (failed) return;
    failed = true;
    failure_op_ = op_index;
    first_failure_ = report(what);
    if (rt != nullptr && !destroyed) {
        char buf[8192];
        tasync_runtime_dump(rt, buf, sizeof(buf));
        first_failure_ += "   runtime tree:\n" + std::string(buf) + "\n";
    }
    std::fputs(first_failure_.c_str(), stderr);
    std::fflush(stderr);
}

// --------------------------------------------------------------- host hooks

// A completion callback the runtime spawned while the model still has it
// registered: its scope completed where the model could not see it (the
// global scope at the end of the program, S12; or a scope the tester no
// longer observes, cancelled by an error, S10, or a dispose timer, S7).
void Episode::learn_finally_spawned(CoRec *c) {
    if (c->fin == nullptr || c->fin->target_scope == nullptr) return;
    ScopeRec *s = c->fin->target_scope;
    if (s == global) {
        complete_scope(global);
        return;
    }
    RANDOM_CHECK(*this, s->closed || scope_unseen_cancel_possible(s),
                 "S12: the finally callback " << name(c) << " of the open " << name(s) << " was spawned");
    // The runtime is completing s, so it has it: its children it no longer
    // has (a released child scope with nothing in it is freed, and its
    // finally callbacks with it, S12) are not in the walk below.
    learn_liveness(s, true, true);
    if (!s->closed) cancel_scope(s, learned_slot(), false, true);
    // Its last coroutines completed where the model has not seen it yet:
    // their completion is learned later and finds the scope completed.
    complete_scope(s);
}


void Episode::on_enter(tasync_coroutine_t *co, void *data) {
    // Offloaded work a free pool thread would take is taken before anything
    // the coroutine does can cancel it; the switch costs virtual time
    // (clock.hpp).
    the_clock().barrier();
    the_clock().advance(switch_cost_ns_);
    ++enter_count_;
    // Switches are bounded by the work an episode does; far more means the
    // scheduler spins (a livelock the wall-clock cap would catch later).
    RANDOM_CHECK(*this, enter_count_ < 200 * (budget + 1000), "livelock: " << enter_count_ << " switches");
    auto *c = static_cast<CoRec *>(data);
    RANDOM_CHECK(*this, c != nullptr, "a coroutine without the tester's host data was entered: id "
                                          << tasync_coroutine_id(co));
    if (c == nullptr || failed) return;
    RANDOM_CHECK(*this, !c->freed, name(c) << " entered after it was freed");
    // A coroutine the core completed and parked on its own stack to hold
    // its error (S10's Future semantics), after its entry returned or
    // inside tasync_coroutine_route_error, with no observation since: the
    // completion is learned first; then this is an entry to escalate, or
    // the return to where route_error parked it.
    if ((c->state == CoState::Ending || (c->state == CoState::Running && c->in_route)) && c->core != nullptr &&
        (tasync_coroutine_flags(c->core) & TASYNC_CO_COMPLETED))
        sync();
    // A coroutine parked on its own stack to hold its error resumes to let
    // it flow (the last handle went unobserved, S10): what ended before this
    // switch (a coroutine that returned, say) ended before the error flows.
    else if (c->state == CoState::Done)
        sync();
    if (c->state == CoState::Done) c->hold_ended = true;  // resumed from its hold (S10)
    if (c->state == CoState::Done && c->in_route) return;  // resumed where route_error parked it (S10)
    if (c->state == CoState::Done && c->outcome_failed && c->error != nullptr &&
        c->error->kind != TASYNC_ERROR_CANCELLATION && !c->routed) {
        // S10's Future semantics (ABI 1.2): a coroutine that completed with
        // an error while a handle was held is parked on its own stack; the
        // error flows from there, through its scope's handlers, once the
        // last handle is released unobserved.
        c->escalations_entered += 1;
        // Once to escalate, and again after each suspension of a handler
        // that runs on its stack.
        RANDOM_CHECK(*this, c->escalations_entered == 1 || c->handlers > 0,
                     name(c) << " was entered " << c->escalations_entered
                             << " times after it completed to escalate its error");
        return;
    }
    RANDOM_CHECK(*this, c->state != CoState::Done,
                 name(c) << " entered after it completed" << (c->cancelled_before_start ? " (cancelled before it started)" : ""));
    sync();  // coroutines that ended since the last observation first
    if (c->state == CoState::Registered) learn_finally_spawned(c);
    RANDOM_CHECK(*this, c->state == CoState::New || c->state == CoState::Running || c->state == CoState::Ending,
                 name(c) << " entered in state " << state_name(c->state)
                         << (c->fin != nullptr && c->fin->target_scope != nullptr
                                 ? " (its scope " + name(c->fin->target_scope) + " has " +
                                       std::to_string(c->fin->target_scope->all) + " coroutines, closed " +
                                       std::to_string(c->fin->target_scope->closed) + ")"
                                 : std::string()));
    if (c->state == CoState::Running || c->state == CoState::Ending) {
        RANDOM_CHECK(*this, c->wait.active || c->kind == CoKind::Main,
                     name(c) << " was resumed while it waited for nothing");
    }
}

void Episode::on_leave(tasync_coroutine_t *, void *) {}

void Episode::on_free(tasync_coroutine_t *co, void *data) {
    the_clock().coroutine_freed(co);
    auto *c = static_cast<CoRec *>(data);
    if (c == nullptr) return;
    RANDOM_CHECK(*this, !c->freed, name(c) << " freed twice");
    c->freed = true;
    if (destroyed || rt == nullptr) return;
    if (c->kind == CoKind::Main) return;
    if (c->state == CoState::New) {
        // Cancelled before it started by something the model learns only
        // now (a dispose timer, a failing scope): the record is still valid.
        sync();
        c->freed = false;
        check_coroutine(c);
        c->freed = true;
    }
    RANDOM_CHECK(*this, c->handle == nullptr, name(c) << " freed while the tester holds a reference to it");
    RANDOM_CHECK(*this, c->state == CoState::Done || c->state == CoState::Ending,
                 name(c) << " freed in state " << state_name(c->state));
    (void)co;
}

void Episode::on_warning(const char *message) {
    if (std::strncmp(message, "Deadlock detected", 17) != 0) return;
    sync();  // what led here first (a forced shutdown unreferences timers)
    // C14: nothing runnable and no live work. Every waiter the model knows
    // of must be waiting for something that has not happened.
    for (CoRec *c : unfinished) {
        if (!c->wait.active || failed) continue;
        const WaitRec &w = c->wait;
        std::string why;
        switch (w.kind) {
            case WaitKind::AwaitCoroutine:
                if (w.co_target->state == CoState::Done) why = "its target " + name(w.co_target) + " completed";
                break;
            case WaitKind::AwaitAwaitable:
                if (w.aw_target->kind == AwRec::Kind::Future && w.aw_target->completed) why = "its future was settled";
                if (w.aw_target->kind == AwRec::Kind::Timeout) why = "it awaits a timeout (live work)";
                break;
            case WaitKind::AwaitAny:
                for (CoRec *t : w.any_cos) {
                    if (t != nullptr && t->state == CoState::Done) why = name(t) + " completed";
                }
                for (AwRec *a : w.any_aws) {
                    if (a != nullptr && a->kind == AwRec::Kind::Future && a->completed) why = "a future was settled";
                    if (a != nullptr && a->kind == AwRec::Kind::Timeout) why = "it awaits a timeout (live work)";
                }
                break;
            case WaitKind::Park:
                if (w.resumed) why = "it was resumed";
                break;
            case WaitKind::Scope:
                if (w.scope->active == 0 || w.scope->cancelled) why = "its scope has no active coroutine or was cancelled";
                break;
            case WaitKind::ScopeAfterCancel:
                if (w.scope->all == 0) why = "its scope has no coroutine left";
                break;
            case WaitKind::GroupNext:
                if (w.group->completed.size() > w.index ||
                    w.group->completed.size() == w.group->tasks.size())
                    why = "its group has a result or nothing unfinished";
                break;
            case WaitKind::Delay:
            case WaitKind::Fd:
            case WaitKind::Op:
            case WaitKind::Offload: why = "it waits for live work (delay, fd, operation or offload)"; break;
            case WaitKind::Yield: why = "it only yielded"; break;
            default: break;
        }
        if (w.cancellation != nullptr) {
            if (w.cancellation->kind == AwRec::Kind::Timeout) why = "its cancellation is a timeout (live work)";
            if (w.cancellation->kind == AwRec::Kind::Future && w.cancellation->completed)
                why = "its cancellation future was settled";
        }
        RANDOM_CHECK(*this, why.empty(), "C14: deadlock reported while " << name(c) << " should be woken: " << why);
    }
    for (TimerRec *t : live_timers) {
        RANDOM_CHECK(*this, !(t->armed && t->ref && !t->destroyed),
                     "C14: deadlock reported while callback timer tm" << t->tmid << " is armed and referenced");
    }
    deadlock_seen = true;
    if (shutdown_phase == TASYNC_SHUTDOWN_NONE) {
        shutdown_phase = TASYNC_SHUTDOWN_GRACEFUL;
        shutdown_slot = slot(nullptr, true);
    }
    ErrSlot *err = shutdown_slot;
    std::vector<CoRec *> waiting;
    for (CoRec *c : unfinished) {
        if (c->wait.active) waiting.push_back(c);
    }
    for (CoRec *c : waiting) cancel_co(c, err);
    if (main->wait.active && !in_final_run) cancel_co(main, err);
    forced_wakeups();
}

// ------------------------------------------------------------- observation

// Learns what the model does not predict: coroutines that completed since
// the last observation, a shutdown or scope failure caused by an unhandled
// error (S10), dispose timers that fired, held group tasks that started,
// timeouts and group awaitables that completed.
void Episode::sync() {
    if (failed || destroyed) return;
    // Coroutines whose entry returned, in the order they returned. The core
    // applies S10 to an error right after the entry returns and before the
    // coroutine completes: what that error caused is learned just before
    // the completion of the coroutine that may have caused it.
    std::vector<CoRec *> later;
    for (std::size_t i = 0; i < ending_.size(); ++i) {
        CoRec *c = ending_[i];
        if (c->state != CoState::Ending) continue;
        // Still on its own stack (handlers, or the core completing it calls
        // back into the host) until the runtime says it completed.
        if (c->handlers > 0 || (c == current() && !(tasync_coroutine_flags(c->core) & TASYNC_CO_COMPLETED))) {
            later.push_back(c);
            continue;
        }
        const bool may_escalate = c->error != nullptr && !c->routed && errors_flow(c) &&
                                  c->error->kind != TASYNC_ERROR_CANCELLATION;
        if (may_escalate) learn_escalations();
        finished(c);
    }
    ending_.swap(later);
    // Coroutines the core completed inside tasync_coroutine_route_error
    // (S10's Future semantics: a handle is held, nobody awaits it yet); they
    // stay parked on their own stack until the error is observed or the
    // last handle goes.
    for (CoRec *c : std::vector<CoRec *>(unfinished)) {
        if (!c->in_route || c->state != CoState::Running || c->core == nullptr) continue;
        if (!(tasync_coroutine_flags(c->core) & TASYNC_CO_COMPLETED)) continue;
        finished(c);
    }
    // Released groups that let go (G1) complete their scopes, which spawns
    // those scopes' finally callbacks; the errors the groups let flow may
    // have started a shutdown phase before or after that (several groups
    // released between two observations: the tester's releases at the end
    // of the program), so the callbacks are not among the coroutines the
    // phase's sweep surely cancelled.
    const std::vector<CoRec *> before_let_go = unfinished;
    bool let_go = false;
    known_before_let_go = &before_let_go;
    for (GroupRec &g : groups) {
        const bool was = g.let_go;
        learn_let_go(&g);
        let_go = let_go || (g.let_go && !was);
    }
    known_before_let_go = nullptr;
    learn_escalations(false, let_go ? &before_let_go : nullptr);
    for (ScopeRec &s : scopes) {
        if (s.dispose_timer && now() >= s.dispose_deadline && !s.queryable()) {
            // It may have fired: what it cancels is unknown to the model.
            for (CoRec *c : s.coroutines) c->cancel_maybe = true;
            s.maybe_cancelled = true;
        }
    }
    // Coroutines cancelled before they started where the model could not
    // see it (their scope failed or was cancelled by a timer, or the zombie
    // timer after the end of the program, S9), learned in the order the
    // runtime's sweeps go: the order of creation (the order in which a
    // group then lists them as completed, G1).
    std::vector<CoRec *> by_creation(unfinished);
    std::sort(by_creation.begin(), by_creation.end(), [](const CoRec *a, const CoRec *b) { return a->tid < b->tid; });
    for (CoRec *c : by_creation) {
        if (c->state == CoState::New && c->core != nullptr && !c->cancel_requested && c != current()) check_coroutine(c);
    }
    {
        tasync_coroutine_t *buf[128];
        const size_t n = tasync_scope_coroutines(global->core, buf, 128);
        bool learned = false;
        for (size_t i = 0; i < n && i < 128; ++i) {
            CoRec *c = rec_of(buf[i]);
            if (c != nullptr && c->state == CoState::Registered) {
                learn_finally_spawned(c);
                learned = true;
            }
        }
        // The scopes whose completion spawned them completed where the
        // model could not see in which order, relative to each other and
        // to completions it did see: the finally callbacks that have not
        // finished take the global scope's order (S13).
        if (learned) align_finally_order(buf, n < 128 ? n : 128);
    }
    for (AwRec *a : futures) {
        if (a->completed || a->kind != AwRec::Kind::Timeout) continue;
        if (tasync_awaitable_is_completed(a->aw)) {
            const std::uint64_t n = now();
            RANDOM_CHECK(*this, n >= a->created_ns + a->duration_ns,
                         "C21: timeout a" << a->aid << " of " << a->duration_ns << " ns completed after "
                                          << (n - a->created_ns) << " ns");
            a->completed = true;
        }
    }
    for (AwRec *a : futures) {
        if (a->completed || a->group == nullptr) continue;
        if (!tasync_awaitable_is_completed(a->aw)) continue;
        a->completed = true;
        expect::GroupOutcome want;
        const bool due = expect::group_outcome(a->kind, *a->group, &want);
        RANDOM_CHECK(*this, due, "G1: group awaitable a" << a->aid << " (mode " << static_cast<int>(a->kind) << ") of g"
                                                         << a->group->gid << " completed with " << a->group->tasks.size()
                                                         << " tasks, " << a->group->completed.size()
                                                         << " completed, before its condition held");
        void *v = nullptr;
        void *e = nullptr;
        int rc = tasync_awaitable_outcome(a->aw, &v, &e);
        a->failed = rc == TASYNC_EFAILED;
        if (due) {
            RANDOM_CHECK(*this, a->failed == want.failed,
                         "G1: group awaitable a" << a->aid << (a->failed ? " failed" : " succeeded")
                                                 << ", expected the opposite");
            if (want.index >= 0 && a->failed == want.failed) {
                CoRec *t = a->group->completed[static_cast<std::size_t>(want.index)];
                if (a->failed)
                    RANDOM_CHECK(*this, error_matches(t->outcome_error, e),
                                 "G1: group awaitable a" << a->aid << " carries an error other than " << name(t) << "'s");
                else
                    RANDOM_CHECK(*this, v == t->outcome_value,
                                 "G1: group awaitable a" << a->aid << " carries a value other than " << name(t) << "'s");
            }
        }
    }
    handled_unsynced = 0;
    learn_chan_ops();  // channel operations completed by what ran (T1)
}

void Episode::align_finally_order(tasync_coroutine_t *const *listed, std::size_t n, bool scope_callbacks_only) {
    std::vector<std::size_t> slots;  // positions of the callbacks in the model's list
    std::vector<CoRec *> recs;
    for (std::size_t i = 0; i < global->coroutines.size(); ++i) {
        CoRec *c = global->coroutines[i];
        if (c->kind != CoKind::Finally) continue;
        if (scope_callbacks_only && (c->fin == nullptr || c->fin->target_scope == nullptr)) continue;
        slots.push_back(i);
        recs.push_back(c);
    }
    auto rank = [&](const CoRec *c) {
        for (std::size_t i = 0; i < n; ++i) {
            if (rec_of(listed[i]) == c) return i;
        }
        return n;  // not listed: keeps its place after the listed ones
    };
    std::stable_sort(recs.begin(), recs.end(), [&](const CoRec *a, const CoRec *b) { return rank(a) < rank(b); });
    // One scope's callbacks are still spawned in the order they were
    // registered (S12).
    for (std::size_t i = 0; scope_callbacks_only && i < recs.size(); ++i) {
        for (std::size_t j = i + 1; j < recs.size(); ++j) {
            const FinRec *a = recs[i]->fin;
            const FinRec *b = recs[j]->fin;
            if (a == nullptr || b == nullptr || a->target_scope != b->target_scope || rank(recs[j]) == n) continue;
            RANDOM_CHECK(*this, a->registered_op <= b->registered_op,
                         "S12: the finally callbacks of " << name(a->target_scope) << " were spawned out of the order "
                                                          << "they were registered in (" << name(recs[i]) << ", "
                                                          << name(recs[j]) << ")");
        }
    }
    for (std::size_t k = 0; k < slots.size(); ++k) global->coroutines[slots[k]] = recs[k];
}

std::string Episode::describe(const void *e) const {
    if (e == nullptr) return "no error";
    if (!host.is_error(e)) return "<not an error>";
    auto *err = static_cast<const Error *>(e);
    return "#" + std::to_string(err->serial) + " (" + err->what + ")";
}

std::string Episode::describe(const ErrSlot *s) const {
    if (s == nullptr) return "no error";
    if (s->e == nullptr) return s->core_made ? "a cancellation the core makes" : "an unknown error";
    return describe(static_cast<const void *>(s->e));
}

// Scope failures and cancellations, then the shutdown phase.
void Episode::learn_escalations(bool failures_only, const std::vector<CoRec *> *known_before, bool learn_phase) {
    if (failed || destroyed) return;
    // Scopes before the shutdown (an error fails its scope before it
    // reaches the global scope); parents before children, whose walk then
    // completes the subtree in the runtime's order (S6). Each scope gets a
    // cancellation error of its own: a child's dispose timer may have fired
    // before its parent's. The core may have entered a shutdown phase
    // before or after those cancellations spawned finally callbacks (C11):
    // the sweep cancels only the coroutines known before this step surely.
    const std::vector<CoRec *> known = known_before != nullptr ? *known_before : unfinished;
    // Failures first, children before parents: an error moving up fails
    // and cancels the scope it starts from (whose walk may complete
    // coroutines and child scopes while the parent is still open) before
    // it reaches the parent (S10). A scope is created after its parent, so
    // the reverse of creation order puts the deeper one first.
    std::vector<ScopeRec *> newly_failed;
    for (ScopeRec &s : scopes) {
        if (!s.queryable() || s.is_global) continue;
        if ((tasync_scope_flags(s.core) & TASYNC_SCOPE_FAILED) && !s.failed) {
            RANDOM_CHECK(*this, error_may_flow(), "S10: " << name(&s) << " failed without an unhandled error");
            s.failed = true;
            newly_failed.push_back(&s);
        }
    }
    for (auto it = newly_failed.rbegin(); it != newly_failed.rend(); ++it) {
        if ((*it)->cancelled) continue;
        learn_liveness(*it, false, true);
        cancel_scope(*it, learned_slot(), false, true);
    }
    for (ScopeRec &s : scopes) {
        if (!s.queryable() || s.is_global) continue;
        const uint32_t f = tasync_scope_flags(s.core);
        if ((f & TASYNC_SCOPE_CANCELLED) && !s.cancelled && !failures_only) {
            bool timer = false;
            for (ScopeRec *p = &s; p != nullptr; p = p->parent) {
                timer = timer || (p->dispose_timer && now() >= p->dispose_deadline);
            }
            RANDOM_CHECK(*this, timer || error_may_flow() || s.maybe_cancelled,
                         "S6: " << name(&s) << " was cancelled, by nobody the tester knows of");
            learn_liveness(&s, false, true);
            cancel_scope(&s, learned_slot(), false, true);
        }
    }
    if (learn_phase) learn_shutdown_phase(known);
}

// The shutdown phase an unhandled error (S10, C15) or a deadlock started.
void Episode::learn_shutdown_phase(const std::vector<CoRec *> &known) {
    if (failed || destroyed) return;
    const int phase = tasync_runtime_shutdown_phase(rt);
    if (phase != shutdown_phase) {
        RANDOM_CHECK(*this, phase > shutdown_phase,
                     "C15: the shutdown phase went back from " << shutdown_phase << " to " << phase);
        RANDOM_CHECK(*this, error_may_flow() || deadlock_seen,
                     "C15: shutdown phase " << phase << " without a shutdown request or an unhandled error");
        if (tracing()) trace("   model: learned shutdown phase " + std::to_string(phase));
        shutdown_learned_op = op_index;
        if (shutdown_phase == TASYNC_SHUTDOWN_NONE) start_shutdown(slot(nullptr, true), &known);
        if (phase == TASYNC_SHUTDOWN_FORCED) forced_shutdown(&known);
        shutdown_phase = phase;
    }
}

bool Episode::error_matches(ErrSlot *slot, void *observed) {
    if (slot == nullptr) return observed == nullptr;
    if (!host.is_error(observed)) return false;
    auto *e = static_cast<Error *>(observed);
    if (slot->e == nullptr) {
        if (slot->any && e->kind != TASYNC_ERROR_CANCELLATION) return false;
        if (slot->core_made && !slot->any && !(e->made_by_core && (e->kind == TASYNC_ERROR_CANCELLATION))) return false;
        slot->e = e;
        return true;
    }
    return slot->e == e;
}

void Episode::check_coroutine(CoRec *c) {
    if (c->freed || c->core == nullptr) return;
    const uint32_t f = tasync_coroutine_flags(c->core);
    const std::string n = name(c);
    const bool is_current = tasync_coroutine_current(rt) == c->core;
    switch (c->state) {
        case CoState::Registered: return;
        case CoState::New:
            if ((f & TASYNC_CO_COMPLETED) && !(f & TASYNC_CO_STARTED) && !c->cancel_requested) {
                // Cancelled before it started by something the model could
                // not see (a scope failing from an error, S10).
                RANDOM_CHECK(*this, unseen_cancel_possible(c), "C7: " << n << " completed before it started, cancelled by nobody");
                cancel_co(c, learned_slot());
                return;
            }
            if (c->held && (f & TASYNC_CO_QUEUED) && c->group != nullptr && !c->group->held &&
                expect::kReleasedGroupStartsHeldTasks) {
                c->held = false;  // its released group let it start (G1)
            }
            RANDOM_CHECK(*this, !(f & TASYNC_CO_STARTED) && !(f & TASYNC_CO_COMPLETED),
                         n << " has not started, but its flags are " << std::hex << f);
            RANDOM_CHECK(*this, ((f & TASYNC_CO_QUEUED) != 0) == !c->held,
                         n << (c->held ? " is held by its group" : " is queued") << ", flags " << std::hex << f);
            break;
        case CoState::Running:
        case CoState::Ending:
            // Inside tasync_coroutine_route_error with a handle held, the
            // outcome is final (completed) while the coroutine waits, on
            // its own stack, for the handle to go or its error to be
            // observed (S10's Future semantics, ABI 1.2).
            RANDOM_CHECK(*this, (f & TASYNC_CO_STARTED) && (!(f & TASYNC_CO_COMPLETED) || c->handlers > 0),
                         n << " runs or waits, but its flags are " << std::hex << f);
            if (is_current) {
                RANDOM_CHECK(*this, f & TASYNC_CO_RUNNING, n << " is current, but its flags are " << std::hex << f);
            } else {
                RANDOM_CHECK(*this, !(f & TASYNC_CO_RUNNING) && ((f & (TASYNC_CO_SUSPENDED | TASYNC_CO_QUEUED)) ||
                                                                   (c->handlers > 0 && (f & TASYNC_CO_COMPLETED))),
                             n << " waits, but its flags are " << std::hex << f);
                // Or parked in tasync_coroutine_route_error holding its error
                // for a handle (S10's Future semantics, ABI 1.2).
                RANDOM_CHECK(*this, c->wait.active || c->kind == CoKind::Main || c->handlers > 0,
                             n << " is suspended while the model has it in no wait");
                if ((f & TASYNC_CO_SUSPENDED) && !(f & TASYNC_CO_QUEUED) && c->wait.active &&
                    c->wait.kind != WaitKind::Handler) {
                    tasync_wait_info_t info{};
                    info.size = sizeof(info);
                    tasync_coroutine_wait_info(c->core, &info);
                    const uint32_t want = wait_kind_of(c->wait.kind);
                    const bool op_emulated = c->wait.kind == WaitKind::Op && info.kind == TASYNC_WAIT_FD;
                    const bool offload_op = c->wait.kind == WaitKind::Op && info.kind == TASYNC_WAIT_OFFLOAD;
                    RANDOM_CHECK(*this, info.kind == want || op_emulated || offload_op,
                                 n << " waits for kind " << want << " but wait_info says " << info.kind);
                }
            }
            RANDOM_CHECK(*this, ((f & TASYNC_CO_PROTECTED) != 0) == (c->protect_depth > 0),
                         n << " protect depth " << c->protect_depth << ", flags " << std::hex << f);
            break;
        case CoState::Done: {
            RANDOM_CHECK(*this, f & TASYNC_CO_COMPLETED, n << " completed, but its flags are " << std::hex << f);
            if (c->cancelled_before_start)
                RANDOM_CHECK(*this, (f & TASYNC_CO_CANCELLED) && !(f & TASYNC_CO_STARTED),
                             n << " was cancelled before it started, flags " << std::hex << f);
            void *v = nullptr;
            void *e = nullptr;
            int rc = tasync_coroutine_outcome(c->core, &v, &e);
            if (c->outcome_known) {
                RANDOM_CHECK(*this, (rc == TASYNC_EFAILED || e != nullptr) == c->outcome_failed,
                             "C4: " << n << "'s outcome " << (e != nullptr ? "failed" : "succeeded") << ", the model says "
                                    << (c->outcome_failed ? "failed" : "succeeded"));
                if (c->outcome_failed)
                    RANDOM_CHECK(*this, error_matches(c->outcome_error, e),
                                 "C4: " << n << "'s outcome is another error: " << describe(e) << ", the model expects "
                                        << describe(c->outcome_error));
                else
                    RANDOM_CHECK(*this, v == c->outcome_value, "C4: " << n << "'s outcome is another value");
            }
            return;
        }
    }
    if (c->kind != CoKind::Main || !in_final_run) {
        const bool requested = (f & TASYNC_CO_CANCEL_REQUESTED) != 0;
        if (requested && !c->cancel_requested && !c->finishing) {
            RANDOM_CHECK(*this, unseen_cancel_possible(c),
                         "C7: " << n << " has a cancellation the tester never asked for");
            c->cancel_requested = true;
            c->cancel_error = learned_slot();
            c->cancel_pending = true;
            if (c->wait.active) c->wait.may_cancel = true;
        }
        if (!requested && c->cancel_requested && !c->finishing)
            RANDOM_CHECK(*this, false, "C7: " << n << " was cancelled, but its flags do not say so");
    }
    RANDOM_CHECK(*this, ((f & TASYNC_CO_ZOMBIE) != 0) == c->zombie,
                 "S9: " << n << (c->zombie ? " should" : " should not") << " be a zombie, flags " << std::hex << f);
}

void Episode::check_scope(ScopeRec *s) {
    const uint32_t f = tasync_scope_flags(s->core);
    const std::string n = name(s);
    auto flag = [&](uint32_t bit, bool want, const char *what) {
        RANDOM_CHECK(*this, ((f & bit) != 0) == want,
                     n << (want ? " should be " : " should not be ") << what << ", flags " << std::hex << f);
    };
    flag(TASYNC_SCOPE_GLOBAL, s->is_global, "global");
    flag(TASYNC_SCOPE_CLOSED, s->closed, "closed (S3)");
    flag(TASYNC_SCOPE_CANCELLED, s->cancelled, "cancelled (S6)");
    flag(TASYNC_SCOPE_DISPOSED, s->disposed, "disposed (S7)");
    flag(TASYNC_SCOPE_FINISHED, s->all == 0, "finished (S13)");
    flag(TASYNC_SCOPE_COMPLETED, s->completed, "completed (S12)");
    flag(TASYNC_SCOPE_NOT_SAFELY, s->not_safely, "not-safely (S8)");
    RANDOM_CHECK(*this, tasync_scope_active_count(s->core) == static_cast<size_t>(s->active),
                 "S9: " << n << " counts " << tasync_scope_active_count(s->core) << " active coroutines, the model "
                        << s->active);
    RANDOM_CHECK(*this, tasync_scope_zombie_count(s->core) == static_cast<size_t>(s->all - s->active),
                 "S9: " << n << " counts " << tasync_scope_zombie_count(s->core) << " zombies, the model "
                        << (s->all - s->active));
    tasync_coroutine_t *buf[64];
    size_t cnt = tasync_scope_coroutines(s->core, buf, 64);
    // S12 orders a scope's finally callbacks after its completion, and no
    // rule orders the completions of different scopes the model learns in
    // one observation (the last coroutines of several scopes finishing
    // between two of them, the tester's releases at the end of the
    // program): the callbacks those completions spawned into the global
    // scope take the runtime's order among themselves. Everything else in
    // the list (members, count, the other coroutines' order) is compared.
    if (s->is_global) align_finally_order(buf, cnt < 64 ? cnt : 64, true);
    RANDOM_CHECK(*this, cnt == s->coroutines.size(),
                 "S13: " << n << " lists " << cnt << " coroutines, the model " << s->coroutines.size());
    for (size_t i = 0; i < cnt && i < 64 && i < s->coroutines.size() && !failed; ++i) {
        // A finally callback the core spawned: its pointer is learned here.
        if (s->coroutines[i]->core == nullptr && rec_of(buf[i]) == s->coroutines[i]) s->coroutines[i]->core = buf[i];
        RANDOM_CHECK(*this, buf[i] == s->coroutines[i]->core,
                     "S13: " << n << "'s coroutine " << i << " is " << name(rec_of(buf[i])) << ", the model says "
                             << name(s->coroutines[i]));
    }
    tasync_scope_t *kids[64];
    size_t kn = tasync_scope_children(s->core, kids, 64);
    std::uint64_t last = 0;
    for (size_t i = 0; i < kn && i < 64 && !failed; ++i) {
        ScopeRec *k = scope_rec(kids[i]);
        RANDOM_CHECK(*this, k != nullptr && k->parent == s, "S13: " << n << " lists a child scope it never had");
        if (k == nullptr) break;
        RANDOM_CHECK(*this, k->sid > last, "S13: " << n << "'s child scopes are not in creation order");
        last = k->sid;
    }
    for (ScopeRec *k : s->children) {
        if (k->dead) continue;
        bool listed = false;
        for (size_t i = 0; i < kn && i < 64; ++i) listed = listed || kids[i] == k->core;
        if (listed) continue;
        RANDOM_CHECK(*this, !(k->owned || k->observed || k->all > 0),
                     "S13: " << n << " does not list its live child " << name(k) << " (owned " << k->owned
                                << ", observed " << k->observed << ", " << k->all << " coroutines)");
        k->dead = true;  // its last reference went
    }
}

void Episode::check_world() {
    sync();
    if (failed) return;
    check_coroutine(main);
    for (CoRec *c : std::vector<CoRec *>(unfinished)) check_coroutine(c);
    for (CoRec *c : handles) {
        if (c->state == CoState::Done) check_coroutine(c);
    }
    // The runtime also lists completed coroutines while a held error
    // escalates on their stack (S10's Future semantics).
    size_t n = tasync_runtime_coroutines(rt, nullptr, 0);
    if (n != 1 + unfinished.size() && !failed) {
        std::vector<tasync_coroutine_t *> list(n);
        tasync_runtime_coroutines(rt, list.data(), n);
        for (tasync_coroutine_t *co : list) {
            CoRec *r = rec_of(co);
            if (r != nullptr && r->state == CoState::Done && (r->escalations_entered > 0 || r->in_route)) --n;
        }
    }
    if (n != 1 + unfinished.size() && !failed) {
        std::vector<tasync_coroutine_t *> list(n);
        tasync_runtime_coroutines(rt, list.data(), n);
        std::string core_side;
        for (tasync_coroutine_t *co : list) {
            CoRec *r = rec_of(co);
            if (r == main || std::find(unfinished.begin(), unfinished.end(), r) != unfinished.end()) continue;
            if (r != nullptr && r->state == CoState::Done && (r->escalations_entered > 0 || r->in_route)) continue;
            core_side += " " + name(r) + "(" + (r != nullptr ? state_name(r->state) : "?") + ")";
        }
        std::string model_side;
        for (CoRec *c : unfinished) {
            bool listed = false;
            for (tasync_coroutine_t *co : list) listed = listed || rec_of(co) == c;
            if (!listed) model_side += " " + name(c) + "(" + state_name(c->state) + ")";
        }
        fail("C12: the runtime has " + std::to_string(n) + " unfinished coroutines, the model " +
             std::to_string(1 + unfinished.size()) + "; only the runtime has:" + core_side + "; only the model has:" + model_side);
    }
    check_scope(global);
    for (ScopeRec *s : live_scopes) check_scope(s);
    check_chans();
    check_pools();
    for (GroupRec *g : live_groups) {
        if (failed) break;
        RANDOM_CHECK(*this, tasync_group_count(g->g) == g->tasks.size(),
                     "G1: group g" << g->gid << " counts " << tasync_group_count(g->g) << " tasks, the model "
                                   << g->tasks.size());
        RANDOM_CHECK(*this, tasync_group_completed_count(g->g) == g->completed.size(),
                     "G1: group g" << g->gid << " counts " << tasync_group_completed_count(g->g)
                                   << " completed tasks, the model " << g->completed.size());
        std::size_t running = 0;
        for (std::size_t i = 0; i < g->tasks.size() && !failed; ++i) {
            tasync_group_entry_t e{};
            e.size = sizeof(e);
            tasync_group_entry(g->g, i, 0, &e);
            CoRec *t = g->tasks[i];
            RANDOM_CHECK(*this, e.coroutine == t->core, "G1: group g" << g->gid << " task " << i << " is another coroutine");
            // Done once it settled: after its finally callbacks (C11). A
            // held task cancelled before it started waits for no slot any
            // more (nor takes one) while its finally callbacks run: the
            // group shows it running until it settles.
            const uint32_t want = t->settled                                   ? TASYNC_GROUP_TASK_DONE
                                  : t->held && !t->cancelled_before_start      ? TASYNC_GROUP_TASK_HELD
                                                                               : TASYNC_GROUP_TASK_RUNNING;
            RANDOM_CHECK(*this, e.state == want,
                         "G1: group g" << g->gid << " task " << name(t) << " is in state " << e.state << ", the model "
                                       << want);
            running += want == TASYNC_GROUP_TASK_RUNNING && !(t->held && t->cancelled_before_start);
        }
        if (g->concurrency != 0)
            RANDOM_CHECK(*this, running <= g->concurrency,
                         "G1: group g" << g->gid << " runs " << running << " tasks, its limit is " << g->concurrency);
        for (std::size_t i = 0; i < g->completed.size() && !failed; ++i) {
            tasync_group_entry_t e{};
            e.size = sizeof(e);
            tasync_group_entry(g->g, i, 1, &e);
            RANDOM_CHECK(*this, e.coroutine == g->completed[i]->core,
                         "G1: group g" << g->gid << " completion " << i << " is " << name(rec_of(e.coroutine))
                                       << ", the model says " << name(g->completed[i]));
        }
    }
}

// ------------------------------------------------------------------ the run

EpisodeResult Episode::run() {
    EpisodeResult result;
    Rng rng(seed);
    budget = 200 + rng.below(2800);  // drawn even when overridden: the rest of the draws stay the same
    if (opts.episode_ops != 0) budget = opts.episode_ops;
    bind_thread();
    draw_episode_shape(rng);

    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::thread watchdog([&] {
        std::unique_lock<std::mutex> lock(mu);
        if (cv.wait_for(lock, std::chrono::seconds(opts.wall_cap_s), [&] { return done; })) return;
        std::string r = report("HANG: the episode did not end within " + std::to_string(opts.wall_cap_s) + " s");
        std::fputs(r.c_str(), stderr);
        std::fflush(stderr);
        reported_.store(true);
        std::abort();  // a debugger shows where the episode hangs
    });

    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.host = host.table();
    o.host_data = &host;
    o.stack_size = 64 * 1024;
    o.stack_cache = rng.chance(50) ? 1 : 0;
    o.zombie_timeout_ns = 1000000;
    // Few pool threads, so that offloaded work also queues (and is taken
    // back from the queue by cancellations); sometimes more than jobs.
    o.thread_pool_size = rng.chance(25) ? 16 : 1 + rng.below(3);
    {
        static constexpr std::uint64_t kSwitchCosts[] = {0, 0, 1000, 10000, 50000};
        switch_cost_ns_ = kSwitchCosts[rng.below(5)];
    }
    char err[512] = {0};
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    // The runtime runs on the tester's virtual clock (clock.hpp).
    const std::string why = the_clock().load(opts.backend);
    int rc = TASYNC_EBACKEND_NOT_FOUND;
    if (!why.empty()) {
        fail("the virtual clock: " + why);
    } else {
        o.backend = the_clock().path().c_str();
        the_clock().start_episode(this, o.thread_pool_size);
        on_clock_ = true;
        rc = tasync_runtime_create(&o, &rt);
        if (rc != 0) fail(std::string("tasync_runtime_create failed: ") + err);
    }
    if (rc == 0) {
        main = new_co(CoKind::Main, 0, rng.fork());
        main->core = tasync_coroutine_current(rt);
        main->state = CoState::Running;
        main->entered = true;
        tasync_coroutine_set_host_data(main->core, main);
        global = new_scope(nullptr, tasync_scope_global(rt));
        global->is_global = true;
        main_program();
        final_phase();
        teardown_checks();
    }
    {
        std::lock_guard<std::mutex> lock(mu);
        done = true;
    }
    cv.notify_all();
    watchdog.join();
    unbind_thread();
    result.ok = !failed;
    result.ops = op_index;
    result.budget = budget;
    result.report = first_failure_;
    result.fingerprint = std::move(fingerprint_);
    result.fingerprint_ops = std::move(fingerprint_ops_);
    return result;
}

void Episode::main_program() {
    while (!out_of_budget()) exec(main, draw_op(main->rng, main));
    while (main->protect_depth > 0) exec(main, Op::ProtectEnd);
}

}  // namespace tasync_random
