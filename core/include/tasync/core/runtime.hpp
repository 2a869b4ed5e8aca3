// Internal definitions of the runtime's objects. The C ABI (api/) sees these
// as opaque types; the C++ here is the implementation.
//
// Scheduling (docs/architecture.md): coroutines switch to each other directly
// (symmetric transfer). The coroutine that suspends picks the next runnable
// one itself; when the run queue is empty it polls the reactor on its own
// stack. After every pass over the runnable coroutines the reactor is polled
// without blocking, so I/O readiness is noticed within one pass.
//
// The objects the runtime is made of have a header each: wait.hpp (a
// suspension), run_queue.hpp (the scheduler's queues), awaitable.hpp,
// coroutine.hpp, scope.hpp, context.hpp, timer.hpp, io_watch.hpp and
// signals.hpp (what the reactor is watched for), cancel.hpp (cancellation
// helpers of every suspending function). This header ties them together in
// the runtime, whose members are grouped by the folder of core/src that
// implements them.
#pragma once

#include <tasync/context.h>
#include <tasync/group.h>
#include <tasync/runtime.h>
#include <tasync/scope.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "awaitable.hpp"
#include "backend_loader.hpp"
#include "context.hpp"
#include "coroutine.hpp"
#include "deadline_fd.hpp"
#include "fcontext.hpp"
#include "io_watch.hpp"
#include "list.hpp"
#include "run_queue.hpp"
#include "scope.hpp"
#include "signals.hpp"
#include "stack_pool.hpp"
#include "thread_pool.hpp"
#include "timer.hpp"
#include "timer_heap.hpp"
#include "wait.hpp"
#include "watchdog.hpp"

// ------------------------------------------------------------------ runtime

struct tasync_runtime {
    tasync_runtime() = default;
    ~tasync_runtime();
    tasync_runtime(const tasync_runtime &) = delete;
    tasync_runtime &operator=(const tasync_runtime &) = delete;

    using Coroutine = tasync_coroutine;

    int init(const tasync_runtime_options_t &opts);

    // --- host
    tasync_host_t host{};
    void *host_data = nullptr;
    void retain_value(void *v) { if (v && host.value_retain) host.value_retain(host_data, v); }
    void release_value(void *v) { if (v && host.value_release) host.value_release(host_data, v); }
    void retain_error(void *e);
    void release_error(void *e);
    void *make_error(int kind, int code, const std::string &message);
    bool is_cancellation(void *e);
    std::string describe_error(void *e);
    // A warning about `about` (a scope's creation, a coroutine's
    // suspension...): the host reports it at the running user code's
    // location, else at `about` (host.h, warning_at).
    void warn(const std::string &message, const tasync_location_t &about = {});
    tasync_location_t capture_location();
    static std::string format_location(const tasync_location_t &loc);
    // " at file:line", or "" when loc is unknown: messages name real
    // locations only.
    static std::string at(const tasync_location_t &loc) {
        return loc.file != nullptr ? " at " + format_location(loc) : std::string();
    }

    // --- backend
    tasync::detail::LoadedBackend backend;
    const tasync_backend_t *ops = nullptr;
    tasync_loop_t *loop = nullptr;
    // Loads the backend name (NULL or "": the default) from dir and creates
    // its loop. 0, or the error code with why set to a sentence.
    int open_backend(const char *name, const std::string &dir, std::string *why);

    // --- fork (docs/architecture.md). The atfork child handler only sets
    // forked (a child that calls exec next pays nothing); the first use of
    // the reactor in the child gives the loop kernel objects of its own
    // (loop_fork, G11), or, when the backend cannot, replaces the table with
    // one that refuses every operation and shuts the runtime down with an
    // error that says why. Every call into the backend that acts on the
    // loop goes through reactor().
    bool forked = false;
    std::string fork_error;
    tasync_backend_t refusing_ops{};
    const tasync_backend_t *reactor() {
        if (__builtin_expect(forked, 0)) after_fork();
        return ops;
    }
    void after_fork();

    // --- coroutines and scheduling
    std::unique_ptr<tasync::detail::StackPool> stacks;
    Coroutine *main = nullptr;
    Coroutine *current = nullptr;
    tasync::detail::RunQueue<Coroutine> runq;
    std::size_t pass_end = 0;           // run queue position where the pass ends
    bool switch_hooks = false;          // the host has enter or leave hooks
    std::uint64_t next_id = 1;
    std::size_t active = 0;             // unfinished spawned coroutines, not zombie
    std::size_t zombies = 0;
    bool main_waiting_end = false;      // main is inside tasync_runtime_run
    bool deadlock = false;              // detected during the current tasync_runtime_run
    bool destroying = false;
    tasync_scope *global_scope = nullptr;
    tasync::detail::List<tasync_scope, &tasync_scope::all_link> scopes;  // every scope, global first
    std::uint64_t next_scope_id = 1;
    tasync::detail::List<tasync_awaitable, &tasync_awaitable::all_link> all;
    void *co_cache = nullptr;           // freed coroutine blocks for reuse, linked
    std::size_t co_cache_count = 0;     // through their first word
    tasync::detail::SwitchAnnotations main_ann;

    Coroutine *alloc_coroutine();
    std::size_t coroutine_cache_bound() const noexcept;
    void trim_coroutine_cache() noexcept;
    void free_coroutine(Coroutine *co);
    // internal: a completion callback (C11, S12), spawned into o.scope (the
    // global scope when NULL) even when it is closed. held: created but not
    // queued (groups).
    int spawn(const tasync_spawn_options_t &o, Coroutine **out, void **out_error, bool internal = false,
              bool held = false);
    // C11: spawns a finally handler owned by scope sc (see spawn_handler in
    // coroutine/lifecycle.cpp); when owner is given and has not settled yet, its
    // awaiters wait for this handler too.
    void spawn_handler(tasync_spawn_options_t cb, tasync_scope *sc, Coroutine *owner);
    // The scope whose error flow (S10) an error of co enters.
    tasync_scope *error_scope(const Coroutine *co) const { return co->charged != nullptr ? co->charged : scope_of(co); }
    void start_held(Coroutine *co);
    [[gnu::always_inline]] void enqueue(Coroutine *co) { runq.push(co); }
    // A coroutine that becomes runnable (started, woken): high-priority
    // ones go to the front of the queue.
    [[gnu::always_inline]] void make_runnable(Coroutine *co) {
        if (co->high_priority) [[unlikely]] runq.push_front(co);
        else runq.push(co);
    }
    // The current coroutine gives up the CPU; it must have set its state
    // (Ready and queued, or Waiting). Returns when it runs again.
    [[gnu::always_inline]] inline void switch_away() {
        Coroutine *self = current;
        Coroutine *next = pick_next();
        if (next == self) {
            self->state = Coroutine::State::Running;
            return;
        }
        switch_to(next, false);
    }
    [[noreturn]] void finish_and_switch(Coroutine *co);
    // Next coroutine to run: the head of the queue within a pass; the slow
    // path ends passes (polling the reactor), starts new coroutines, skips
    // finished ones, blocks, and detects the end or a deadlock.
    [[gnu::always_inline]] inline Coroutine *pick_next() {
        note_progress();  // the thread came back to the scheduler (C25)
        if (runq.head() != pass_end) {
            Coroutine *next = runq.pop();
            // The queue says who runs after next: start loading the record of
            // the coroutine three places ahead, and the stack top of the one
            // two places ahead (whose record the previous switch prefetched),
            // so that their cache misses overlap with useful work.
            if (runq.size() > 2) {
                Coroutine *after = runq.peek(1);
                __builtin_prefetch(after->ctx);
                __builtin_prefetch(static_cast<char *>(after->ctx) + 64);
                __builtin_prefetch(static_cast<char *>(after->ctx) + 128);
                __builtin_prefetch(&runq.peek(2)->ctx);
            }
            if (next->state != Coroutine::State::New && next->state != Coroutine::State::Finished) return next;
            return pick_next_slow(next);
        }
        return pick_next_slow(nullptr);
    }
    Coroutine *pick_next_slow(Coroutine *popped);
    bool prepare_new(Coroutine *co);
    [[gnu::always_inline]] inline void switch_to(Coroutine *next, bool dying) {
        Coroutine *prev = current;
        if (switch_hooks && host.coroutine_leave) host.coroutine_leave(host_data, prev, prev->host_data);
        current = next;
        next->state = Coroutine::State::Running;
        now_valid = false;
        tasync::detail::annotate_switch_begin(prev->ann, next->ann, dying);
        after_switch(tasync::detail::jump(next->ctx, prev));
    }
    [[gnu::always_inline]] inline void after_switch(tasync::detail::transfer_t t) {
        Coroutine *self = current;
        auto *prev = static_cast<Coroutine *>(t.data);
        tasync::detail::annotate_switch_end(self->ann, &prev->ann);
        prev->ctx = t.fctx;
        if (prev->state == Coroutine::State::Finished && !prev->stack_released) release_stack(prev);
        if (switch_hooks && host.coroutine_enter) host.coroutine_enter(host_data, self, self->host_data);
    }
    static void coroutine_main(tasync::detail::transfer_t t);
    // Rule S10 for a coroutine that ends with an error, on its own stack.
    void before_finish(Coroutine *co);
    // S10's Future semantics: parks co (done) while its error may still be
    // awaited. Returns true when the error must escalate now.
    bool hold_error(Coroutine *co);
    std::vector<Coroutine *> holders;   // coroutines parked in hold_error
    // The host dropped its last handle on co (tasync_coroutine_release).
    void handle_released(Coroutine *co) {
        if (co->holding) wake(co->wait, 0);
    }
    // The end of the program: every held error escalates now.
    void release_holds();
    // The entry returned (or the coroutine never started): the outcome is
    // final (finish_outcome, unless done already), the arguments released.
    void complete_coroutine(Coroutine *co);
    // Records the final outcome, leaves the scope, spawns the finally
    // handlers (C11) and, once they ran, completes the awaitable (settle).
    void finish_outcome(Coroutine *co);
    void settle(Coroutine *co) { co->complete(co->value, co->error); }
    void release_stack(Coroutine *co);

    // Suspends the current coroutine on w until woken. Returns w.code after
    // delivering a pending cancellation.
    int suspend_on(tasync::detail::Wait &w);
    void wake(tasync::detail::Wait *w, int code, void *value = nullptr, void *error = nullptr);
    int cancel(Coroutine *co, void *error);
    // Rule C18 for a blocking call (the host's own or an extension's) whose
    // wait co's cancellation ended: see cancel/cancel.cpp.
    bool cancelled_call_raises(Coroutine *co, void *error);
    void deliver_pending_cancel(tasync::detail::Wait &w);
    // Makes the error object for a failed suspension when the waker left it
    // to the resumed coroutine (so the host sees the right location).
    void fill_error(tasync::detail::Wait &w);

    // --- time
    tasync::detail::TimerHeap timers;
    std::uint64_t now_cache = 0;
    bool now_valid = false;
    std::uint64_t now() {
        if (!now_valid) {
            now_cache = ops->loop_now(loop);
            now_valid = true;
        }
        return now_cache;
    }
    // The clock read now, for a deadline counted from the caller's present:
    // now() is read once per scheduler pass, and a deadline counted from
    // it would end early by however long the pass had run.
    std::uint64_t fresh_now() {
        now_valid = false;
        return now();
    }
    void run_timers();
    // Ends the reactor's wait at the next deadline on a backend whose own
    // timeout is coarse (deadline_fd.hpp); made at the first such wait.
    tasync::detail::DeadlineFd *deadline_fd = nullptr;

    // --- reactor
    std::vector<tasync::detail::FdWatch *> fd_watches;
    std::vector<tasync::detail::FdInfo> fd_info;
    std::unordered_map<int, tasync::detail::SignalWatch *> signal_watches;
    std::unordered_map<int, tasync::detail::ChildWatch *> child_watches;
    tasync::detail::RuntimeSignals *signals = nullptr;  // signals.cpp, on first use
    std::size_t io_waiters = 0;
    std::size_t signal_waiters = 0;
    std::size_t child_waiters = 0;
    std::size_t jobs_in_flight = 0;
    bool has_live_work() const noexcept;
    bool reactor_busy() const noexcept;
    // Polls the reactor and runs due timers and posted callbacks. Called
    // from a coroutine's stack (the one whose suspension emptied the run
    // queue), it runs on the runtime's poll stack instead (poll_on_own_stack).
    void poll(bool may_block);
    // The reactor's stack. The frames of a poll are deep (libuv's
    // uv__io_poll alone keeps a 12 KiB array of events), and the poll runs
    // whenever the run queue empties, on whichever coroutine's stack that
    // happens: over time every pooled stack had those pages touched, and a
    // keep-alive server's RSS grew by ~12 KiB per connection round after
    // round (docs/benchmarks.md, "RSS across rounds"). One stack from the
    // pool takes them all; the switch there and back costs two context
    // switches per poll. Taken on first use, returned at teardown.
    tasync::detail::Stack poll_stack;
    tasync::detail::fcontext_t poll_ctx = nullptr;  // where the poll stack waits
    tasync::detail::SwitchAnnotations poll_ann;
    bool poll_stack_failed = false;  // no stack could be had: poll in place
    // poll(), where it is called.
    void poll_here(bool may_block);
    // poll() on the poll stack; false when it must run in place.
    bool poll_on_own_stack(bool may_block);
    static void poll_stack_main(tasync::detail::transfer_t t);
    // Gives the poll stack back to the pool (teardown).
    void release_poll_stack() noexcept;

    // --- cross-thread
    std::mutex post_mu;
    std::vector<tasync::detail::Posted> posted;
    std::vector<tasync::detail::Posted> posted_swap;
    std::atomic<bool> has_posts{false};
    std::atomic<bool> polling{false};
    std::atomic<std::int64_t> posted_pending{0};
    std::atomic<std::int64_t> external_refs{0};
    // Calls of post() and unref() from other threads still running: the
    // runtime may end (and be destroyed) as soon as a posted callback ran
    // or the last reference went, while the caller is still about to wake
    // the reactor. Teardown waits for them before the loop goes (libuv's
    // uv_async_send and uv_close settle the same race with a busy flag).
    std::atomic<int> xthread_calls{0};
    int post(void (*cb)(void *), void *data);
    void run_posted();

    // --- the stall watchdog (rule C25, watchdog.cpp). progress is bumped
    // where the thread comes back to the scheduler (pick_next) or polls the
    // reactor; polling (above) says it waits there. Nothing else touches the
    // hot path: the watchdog's thread samples both.
    std::atomic<std::uint64_t> progress{0};
    [[gnu::always_inline]] void note_progress() {
        progress.store(progress.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    std::uint64_t stall_timeout_ns = 0;                // 0: no watchdog
    bool watchdog_wanted = false;                      // a timeout is set, the thread is not running
    std::unique_ptr<tasync::detail::Watchdog> watchdog;
    // Starts the thread at the first spawn while a timeout is set.
    [[gnu::always_inline]] void maybe_start_watchdog() {
        if (__builtin_expect(watchdog_wanted, 0)) start_watchdog();
    }
    void start_watchdog();
    void stop_watchdog();

    // --- offload
    // The most threads of the core's pool (a blocking pool: they start
    // on demand and exit when idle, see ThreadPool).
    unsigned thread_pool_size = 64;
    // What the host asked for (tasync_runtime_options_t.thread_pool_size),
    // 0 for the defaults: handed to the backend's loop as well, for a pool
    // of its own.
    unsigned thread_pool_request = 0;
    std::unique_ptr<tasync::detail::ThreadPool> pool;

    // --- settings
    std::uint64_t zombie_timeout_ns = 2000000000ull;

    // --- scopes (scope.cpp)
    tasync_scope *scope_of(const Coroutine *co) const { return co->scope != nullptr ? co->scope : global_scope; }
    tasync_scope *new_scope(tasync_scope *parent);
    void scope_release(tasync_scope *s) {
        if (s != nullptr && --s->refs == 0) scope_free(s);
    }
    void scope_free(tasync_scope *s);
    void scope_add(tasync_scope *s, Coroutine *co);
    // A coroutine of s finished (s's own counters already updated): update
    // the subtree counters up the chain; the slow path wakes whoever waits
    // and completes closed scopes.
    // stop: the walk ends before it (a finally handler's charge stops at
    // the global scope, which counts the handler as its member already).
    void scope_coroutine_finished(tasync_scope *s, bool was_zombie, const tasync_scope *stop = nullptr) {
        for (tasync_scope *p = s; p != nullptr && p != stop; p = p->parent) {
            const bool no_active = !was_zombie && --p->sub_active == 0;
            const bool none = --p->sub_all == 0;
            if ((no_active || none) && (!p->waiters.empty() || (none && p->closed))) scope_notify(p, no_active, none);
        }
    }
    void scope_notify(tasync_scope *s, bool no_active, bool none);
    void zombify(Coroutine *co);
    void scope_cancel(tasync_scope *s, void *error, bool explicit_call);
    // quiet: no warning about the coroutines it cancels or turns into
    // zombies (a task group let go, rule G1).
    void scope_dispose(tasync_scope *s, int strategy, std::uint64_t timeout_ns, bool quiet = false);
    void scope_wake_completion(tasync_scope *s, int code, void *error);
    void scope_check_completed(tasync_scope *s);
    void propagate_error(Coroutine *co, tasync_scope *from, void *error);
    void release_undelivered(tasync_scope *s, bool move_up);
    bool deliver_to_after_cancel(tasync_scope *s, void *error);
    // Spawns every callback of cbs as a finally handler into sc (C11, S12).
    void run_finally(std::vector<tasync_spawn_options_t> &cbs, tasync_scope *sc, Coroutine *owner);
    void detach_scope(tasync_scope *s);
    void teardown_scopes_begin();
    std::unordered_set<tasync_group *> groups;  // group.cpp
    void teardown_groups();
    void teardown_scopes_end();
    // Finally callbacks and the context, which most coroutines never have.
    void drop_coroutine_extras(Coroutine *co) {
        if (co->finally_cbs != nullptr || co->context != nullptr) drop_extras_slow(co);
    }
    void drop_extras_slow(Coroutine *co);
    void context_clear(tasync_context *ctx);
    std::unordered_set<tasync_context *> free_contexts;  // context.cpp
    void teardown_free_contexts();

    // --- the end of the program, shutdown, deadlock (shutdown.cpp)
    int shutdown_phase = TASYNC_SHUTDOWN_NONE;
    void *shutdown_error = nullptr;     // owned: the cancellation shutdown used
    void *fatal_error = nullptr;        // owned: what the host reports (take_error)
    bool fatal_unhandled = false;       // fatal_error is an unhandled error (not a deadlock)
    int zombie_stage = 0;               // 0 none, 1 grace running, 2 cancelled, 3 forced
    tasync::detail::TimerEntry zombie_timer;
    tasync::detail::TimerEntry stuck_timer;
    tasync::detail::List<tasync_timer, &tasync_timer::all_link> callback_timers;
    void start_shutdown(void *error, bool unhandled);
    // C22, tasync_runtime_abort: marks and cancels what is unfinished.
    int abort_all(int mode, void *error);
    // Bumped by every abort: a finally handler registered at an older value
    // (kept in its options' flags) belonged to aborted code.
    std::uint32_t abort_epoch = 0;
    void force_wake(Coroutine *co, void *error);
    void maybe_start_zombie_phase() {
        if (main_waiting_end && active == 0 && zombies != 0 && zombie_stage == 0) start_zombie_phase();
    }
    void start_zombie_phase();
    void zombie_timer_fired();
    void stuck_timer_fired();
    void warn_stuck(Coroutine *co, const char *why);
    // Deadlock: no runnable coroutine, no live work, and coroutines waiting.
    void report_deadlock();
    std::vector<Coroutine *> unfinished_coroutines();
    std::string describe_wait(const Coroutine *co);
    std::string dump();
};

namespace tasync::detail {
// The thread's runtime (one per thread, docs/architecture.md).
extern thread_local tasync_runtime *tls_runtime;
// Installs the guard-page SIGSEGV handler and this thread's alternate signal
// stack (once per thread); see guard.cpp.
void install_overflow_handler(tasync_runtime *rt);
void remove_overflow_handler(tasync_runtime *rt);
// Prints "tasync: fatal: what" and aborts (runtime/host.cpp).
[[noreturn]] void fatal(const char *what);
// Registers the fork handlers of every runtime, once per process
// (runtime/fork.cpp).
void register_atfork_handlers();
}  // namespace tasync::detail
