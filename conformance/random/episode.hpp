// One episode of the randomized tester: a runtime created from a seed, a
// main program of random operations (whose spawned coroutines run random
// programs of their own), the end of the program, the runtime's
// destruction, and checks of the model against the runtime after every
// operation. See random_main.cpp for how episodes are run and replayed.
#pragma once

#include <tasync/tasync.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "host.hpp"
#include "model.hpp"
#include "rng.hpp"

namespace tasync_random {

struct Options {
    std::uint64_t seed = 1;
    std::uint64_t ops = 1000000;    // operations per backend
    std::uint64_t episode_ops = 0;  // 0: drawn per episode
    bool keep_going = false;        // report every failing episode, not only the first
    bool verbose = false;           // print the trace, the model's steps included, as it goes
    bool trace_all = false;         // keep the whole trace, the model's steps included, for the report
    unsigned replay_check = 0;      // run every this many-th episode twice and compare the runs (0: none)
    bool fingerprints = false;      // keep the per-line hashes even without replay_check (--fingerprints)
    unsigned wall_cap_s = 60;       // an episode running longer is a hang
    std::string backend;
    std::string program = "build/conformance/random/tasync-random";  // for the replay command
    std::string backend_dir = "build/backends";                       // $TASYNC_BACKEND_DIR
};

// Returned by Episode::run.
struct EpisodeResult {
    bool ok = true;
    std::uint64_t ops = 0;
    std::uint64_t budget = 0;  // the operations it was drawn (--episode-ops)
    std::string report;  // the failure report, with the replay command
    // One hash per trace line, of the line and the virtual time it was
    // written at: two runs of an episode are the same run when these are.
    std::vector<std::uint64_t> fingerprint;
    std::vector<std::uint64_t> fingerprint_ops;  // the operation of each line
};

class Episode {
public:
    Episode(const Options &opts, std::uint64_t seed);
    ~Episode();
    Episode(const Episode &) = delete;
    Episode &operator=(const Episode &) = delete;

    EpisodeResult run();

    // ------------------------------------------------ used by the operations
    const Options &opts;
    const std::uint64_t seed;
    tasync_runtime_t *rt = nullptr;
    Host host;
    std::uint64_t op_index = 0;
    std::uint64_t budget = 0;
    bool failed = false;

    // Records (deques: pointers stay valid).
    std::deque<CoRec> cos;
    std::deque<ScopeRec> scopes;
    std::deque<AwRec> aws;
    std::deque<GroupRec> groups;
    std::deque<PipeRec> pipes;
    std::deque<FinRec> fins;
    std::deque<TimerRec> timers;
    std::deque<HandlerRec> handlers;
    std::deque<ErrSlot> slots;
    std::vector<std::unique_ptr<OffloadRec>> offloads;
    std::deque<ChanRec> chans;
    std::deque<ChanOpRec> chan_ops;
    std::deque<PoolRec> pools;
    std::vector<CtxEntry> ctx_entries;
    // The releases of operations still running (OnUnwind, ops.hpp).
    std::list<std::function<void()>> unwinds;
    // After tasync_runtime_destroy: the releases of operations whose
    // coroutine the destroy freed suspended, never unwinding its stack.
    void run_abandoned();
    CoRec *main = nullptr;
    ScopeRec *global = nullptr;

    // Things the operations pick from (kept small; swap-removed).
    std::vector<CoRec *> unfinished;   // unfinished coroutine records (main excluded)
    std::vector<CoRec *> handles;      // records the tester holds a handle of
    std::vector<CoRec *> parked;       // records parked in tasync_suspend, not resumed
    std::vector<ScopeRec *> live_scopes;  // queryable scopes the tester may use
    std::vector<AwRec *> futures;      // held futures and timeouts
    std::vector<GroupRec *> live_groups;
    std::vector<PipeRec *> open_pipes;
    std::vector<TimerRec *> live_timers;
    std::vector<HandlerRec *> live_handlers;
    std::vector<ChanRec *> live_chans;     // held by the tester
    std::vector<ChanOpRec *> live_ops;     // channel operations held by the tester
    std::vector<PoolRec *> live_pools;     // held by the tester

    // What the model knows of the runtime as a whole.
    int shutdown_phase = TASYNC_SHUTDOWN_NONE;
    ErrSlot *shutdown_slot = nullptr;  // the error graceful shutdown cancels with
    bool deadlock_seen = false;
    // The operation in which the model learned a shutdown phase from the
    // runtime (not requested it): a finally callback whose spawn the model
    // learns in the same operation may have been spawned before the
    // phase's sweep (and cancelled by it) or after.
    std::uint64_t shutdown_learned_op = ~0ull;
    bool force_anytime = false;  // forced wake-ups may end any wait (after C14, C15 phase two)
    bool in_final_run = false;
    bool destroyed = false;
    long error_candidates = 0;   // unhandled errors that may still escalate (S10)
    // Errors a handler handled since the last sync(): on its way up to that
    // handler an error fails the scopes below it that handle nothing (S10),
    // and the model learns those failures only at the next sync().
    long handled_unsynced = 0;
    bool error_may_flow() const { return error_candidates > 0 || handled_unsynced > 0; }
    void error_handled() {
        if (error_candidates > 0) --error_candidates;
        ++handled_unsynced;
    }
    std::uint64_t done_counter = 0;
    std::uint64_t next_id = 1;

    // Limits of the population.
    static constexpr std::size_t kMaxUnfinished = 48;
    static constexpr std::size_t kMaxScopes = 12;
    static constexpr std::size_t kMaxFutures = 8;
    static constexpr std::size_t kMaxGroups = 3;
    static constexpr std::size_t kMaxPipes = 3;
    static constexpr std::size_t kMaxTimers = 4;
    static constexpr std::size_t kMaxChans = 3;
    static constexpr std::size_t kMaxChanOps = 6;
    static constexpr std::size_t kMaxPools = 2;
    static constexpr int kMaxDepth = 4;

    bool out_of_budget() const { return failed || op_index >= budget; }

    // Failure: the first one is reported (with the seed, the operation and
    // the trace); the episode then winds down without further checks.
    void fail(const std::string &what);
    // Appends to the trace (the last operations are printed on failure).
    void trace(const std::string &line);
    bool tracing() const { return opts.verbose || opts.trace_all; }
    // The running coroutine's record (main's outside spawned coroutines).
    CoRec *current();
    CoRec *rec_of(tasync_coroutine_t *co);
    ScopeRec *scope_rec(tasync_scope_t *s);
    std::string name(const CoRec *c) const;
    std::string name(const ScopeRec *s) const;

    // Model updates (model_ops.cpp).
    CoRec *new_co(CoKind kind, int depth, std::uint64_t rng_seed);
    ScopeRec *new_scope(ScopeRec *parent, tasync_scope_t *core);
    ErrSlot *slot(Error *e, bool core_made);
    ErrSlot *learned_slot();
    void spawned(CoRec *c, ScopeRec *s);
    void zombify(CoRec *c);
    void finished(CoRec *c);
    // C11, S12: a registered finally callback is spawned into the global
    // scope, protected, charged to charge_to (and its ancestors) unless that
    // is NULL or the global scope.
    void spawn_finally(FinRec *f, ScopeRec *charge_to);
    // C11: the coroutine's awaiters (its group too) may resume: its
    // finally callbacks have run.
    void settle(CoRec *c);
    // The scope completes: its finally callbacks are spawned, charged to it.
    void complete_scope(ScopeRec *s);
    // A coroutine (or a charge) leaves s and its ancestors, as the core's
    // scope_coroutine_finished walks them (up to stop, excluded).
    void leave_scopes(ScopeRec *s, bool zombie, ScopeRec *stop = nullptr);
    void cancel_co(CoRec *c, ErrSlot *err);
    void cancel_scope(ScopeRec *s, ErrSlot *err, bool explicit_call, bool learned = false);
    // started_ns: the runtime's clock read just before the dispose call
    // (the core arms its timer from a time no earlier than that).
    void dispose_scope(ScopeRec *s, int strategy, std::uint64_t timeout_ns, std::uint64_t started_ns = 0);
    // known: when the phase was learned, not requested, the coroutines the
    // model had before it learned this step's scope cancellations. The
    // others (finally callbacks those cancellations spawned) may have been
    // spawned before or after the core's sweep: their cancellation is
    // possible, not certain.
    void start_shutdown(ErrSlot *err, const std::vector<CoRec *> *known = nullptr);
    void forced_wakeups();
    void forced_shutdown(const std::vector<CoRec *> *known = nullptr);
    void sweep_cancel(CoRec *c, ErrSlot *err, const std::vector<CoRec *> *known);
    void drop_handle(CoRec *c);
    void remove_live_scope(ScopeRec *s);
    void learn_liveness(ScopeRec *root, bool core_alive = false, bool learned = false);
    bool in_subtree(const ScopeRec *s, const ScopeRec *root) const;
    void cancel_upwards(ScopeRec *from, ScopeRec *top, const char *why);
    // While sync() learns the let-gos of released groups: the coroutines
    // known before them (a shutdown one of them started may have swept
    // before what another spawned).
    const std::vector<CoRec *> *known_before_let_go = nullptr;
    ScopeRec *scope_of_current();

    // Observation (episode.cpp): learns what the model cannot predict, then
    // compares the whole world with the model.
    void sync();
    // Scope failures and cancellations the model did not cause, then the
    // shutdown phase; failures_only: what an error moving up did (before
    // the model applies a dispose that moved it).
    // known_before: the coroutines surely known before what this step
    // learned (the shutdown sweep cancels only those surely, start_shutdown).
    void learn_escalations(bool failures_only = false, const std::vector<CoRec *> *known_before = nullptr,
                           bool learn_phase = true);
    void learn_finally_spawned(CoRec *c);
    // Orders the model's finally callbacks in the global scope as the
    // runtime lists them (listed: the global scope's coroutines, n of them).
    // scope_callbacks_only: only those a scope's completion spawned (S12).
    void align_finally_order(tasync_coroutine_t *const *listed, std::size_t n, bool scope_callbacks_only = false);
    // A released group that let go (G1), learned from its scope's flags.
    void learn_let_go(GroupRec *g);
    std::vector<CoRec *> ending_;  // entries that returned, in order, not yet completed
    void check_world();
    void check_coroutine(CoRec *c);
    void check_scope(ScopeRec *s);
    bool error_matches(ErrSlot *slot, void *observed);
    std::string describe(const void *e) const;
    std::string describe(const ErrSlot *s) const;

    // Channels and pools (ops_channel.cpp, ops_pool.cpp): what their
    // operations and callbacks taught the model, checked against the
    // runtime after every operation; the end of the program.
    void learn_chan_ops();
    void check_chans();
    void check_pools();
    void pool_owner_settled(CoRec *c);
    void end_chans_and_pools();
    void release_chans_and_pools();

    // Outcome checks of a wait that returned (waits.cpp).
    void begin_wait(CoRec *self, WaitKind kind);
    void end_wait(CoRec *self);
    bool cancel_allowed(CoRec *self);
    bool unseen_cancel_possible(CoRec *c);
    bool scope_unseen_cancel_possible(ScopeRec *s);
    void learn_unseen_cancel(ScopeRec *s);
    // Whether the runtime still has s, so that its flags can be read: the
    // tester holds it, or a coroutine or a child scope does (each holds a
    // reference), which the model sees as an unfinished member that the
    // runtime still places in s.
    bool scope_readable(ScopeRec *s);
    void learn_shutdown_phase(const std::vector<CoRec *> &known);
    bool learn_closed(ScopeRec *s);
    void expect_cancel_outcome(CoRec *self, int rc, void *err, const char *what);

    // Host hooks (host.cpp calls these).
    void on_enter(tasync_coroutine_t *co, void *data);
    void on_leave(tasync_coroutine_t *co, void *data);
    void on_free(tasync_coroutine_t *co, void *data);
    void on_warning(const char *message);

    // Programs (program.cpp).
    std::vector<Op> make_program(Rng &rng, CoKind kind, int depth);
    Op draw_op(Rng &rng, CoRec *self);
    void exec(CoRec *self, Op op);
    void run_program(CoRec *self);
    static void entry(tasync_coroutine_t *self, void *arg);
    static void arg_release(void *arg);
    tasync_spawn_options_t spawn_options(CoRec *c, tasync_scope_t *scope);

    // Durations, in virtual time (clock.hpp).
    std::uint64_t duration(Rng &rng);
    std::uint64_t now();

    void bind_thread();
    void unbind_thread();
    // Best effort, from a fatal signal handler: the seed and the trace.
    void crash_report(int sig);
    void draw_episode_shape(Rng &rng);

private:
    void main_program();
    void final_phase();
    void teardown_checks();
    void watchdog_loop();
    std::string report(const std::string &what);

    std::deque<std::string> trace_;
    std::atomic<bool> reported_{false};  // the wall-clock cap reported a hang before it aborts
    std::vector<std::uint64_t> fingerprint_;
    std::vector<std::uint64_t> fingerprint_ops_;
    std::mutex trace_mu_;
    std::string first_failure_;
    std::uint64_t failure_op_ = 0;
    std::uint64_t enter_count_ = 0;
    unsigned scale_[64] = {};
    std::uint64_t shutdown_at_ = 0;
    std::uint64_t fail_global_at_ = 0;
    bool fail_global_again_ = false;
    bool on_clock_ = false;  // the virtual clock serves this episode's runtime
    std::uint64_t switch_cost_ns_ = 0;  // virtual time a switch to a coroutine takes

};

// The episode running on this thread.
Episode &this_episode();
// The episode running on the test's thread, or NULL (for signal handlers).
Episode *running_episode();

// Formats a message for Episode::fail.
#define RANDOM_CHECK(ep, cond, msg)              \
    do {                                         \
        if (!(ep).failed && !(cond)) {           \
            std::ostringstream os_;              \
            os_ << msg;                          \
            (ep).fail(os_.str());                \
        }                                        \
    } while (0)

}  // namespace tasync_random
