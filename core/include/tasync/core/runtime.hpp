// Internal definitions of the runtime's objects. The C ABI (api/) sees these
// as opaque types; the C++ here is the implementation.
//
// Scheduling (DESIGN section 3): coroutines switch to each other directly
// (symmetric transfer). The coroutine that suspends picks the next runnable
// one itself; when the run queue is empty it polls the reactor on its own
// stack. After every pass over the runnable coroutines the reactor is polled
// without blocking, so I/O readiness is noticed within one pass.
#pragma once

#include <tasync/context.h>
#include <tasync/group.h>
#include <tasync/runtime.h>
#include <tasync/scope.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backend_loader.hpp"
#include "fcontext.hpp"
#include "list.hpp"
#include "stack_pool.hpp"
#include "thread_pool.hpp"
#include "timer_heap.hpp"
#include "watchdog.hpp"

namespace tasync::detail {

struct Wait;
struct GroupTask;
struct RuntimeSignals;

// A registration of a waiting coroutine on an awaitable.
struct Waiter {
    Link link;
    Wait *wait = nullptr;    // the coroutine wait to wake, or nullptr
    // For waiters that are not coroutines (group awaitables, scopes): called
    // when the awaitable completes. The waiter is already unlinked.
    void (*notify)(Waiter *self, tasync_awaitable *source) = nullptr;
    void *data = nullptr;
    int role = 0;            // Wait-specific: which source this is
    // The registrant receives the awaitable's error (an awaiter, a group):
    // a coroutine error with such a waiter does not flow up the scope
    // tree (rule S10). Cancellation awaitables' waiters do not.
    bool handles_error = false;
};
using WaiterList = List<Waiter, &Waiter::link>;

enum class AwaitableKind : std::uint8_t { Coroutine, Future, Timeout, Many };

// What a suspended coroutine waits for (introspection and cancellation);
// the values are those of tasync_wait_kind_t.
enum class WaitKind : std::uint8_t {
    None = TASYNC_WAIT_NONE,
    Yield = TASYNC_WAIT_YIELD,
    Park = TASYNC_WAIT_PARK,
    Await = TASYNC_WAIT_AWAIT,
    Delay = TASYNC_WAIT_DELAY,
    Fd = TASYNC_WAIT_FD,
    Signal = TASYNC_WAIT_SIGNAL,
    Child = TASYNC_WAIT_CHILD,
    Offload = TASYNC_WAIT_OFFLOAD,
    Op = TASYNC_WAIT_OP,
    Scope = TASYNC_WAIT_SCOPE,
    Group = TASYNC_WAIT_GROUP,
    End = TASYNC_WAIT_END,
    GroupSlot = TASYNC_WAIT_GROUP_SLOT,
    GroupCompletion = TASYNC_WAIT_GROUP_COMPLETION,
};

// Lives on the stack of the suspended coroutine for the duration of one
// suspension. Whoever wakes it first records the outcome; the coroutine
// unregisters the rest when it resumes.
struct Wait {
    tasync_coroutine *co = nullptr;
    WaitKind kind = WaitKind::None;
    bool done = false;
    int code = 0;
    void *value = nullptr;         // owned reference
    void *error = nullptr;         // owned reference
    unsigned revents = 0;
    int exit_status = 0;
    int term_signal = 0;
    // Called by cancel(): returns true when the wait may be woken with the
    // cancellation now, false when it must run to completion first (an
    // offloaded job or a kernel-owned buffer); the cancellation is then
    // delivered when the coroutine resumes.
    bool (*on_cancel)(Wait *) = nullptr;
    // Unregisters whatever is still registered (waiter nodes, timers, fd
    // waiters). Called when the coroutine resumes, and by runtime teardown
    // for coroutines that never resume. Must be idempotent.
    void (*cleanup)(Wait *) = nullptr;
    // Ops and offloaded work keep their real result when a cancellation
    // races their completion (nothing lost); the cancellation then waits for
    // the next suspension point.
    bool keeps_result = false;
    // Introspection.
    tasync_awaitable *target = nullptr;
    tasync_scope *scope = nullptr;
    int fd = -1;
    unsigned events = 0;
    int signum = 0;
    int pid = 0;
    std::uint32_t count = 0;
    std::uint64_t deadline = 0;
};

struct FdWaiter {
    Link link;
    Wait *wait = nullptr;
    unsigned events = 0;
};

struct FdWatch {
    tasync_runtime *rt = nullptr;
    int fd = -1;
    tasync_handle_t *handle = nullptr;
    unsigned interest = 0;
    List<FdWaiter, &FdWaiter::link> waiters;
};

struct SignalWatch {
    tasync_runtime *rt = nullptr;
    int signum = 0;
    unsigned pending = 0;          // deliveries nobody waited for yet
    WaiterList waiters;
};

struct ChildWatch {
    tasync_runtime *rt = nullptr;
    int pid = 0;
    int pidfd = -1;                    // watched through handle, or
    bool sigchld = false;              // through SIGCHLD (children.cpp)
    tasync_handle_t *handle = nullptr;
    WaiterList waiters;
};

// What the core remembers about an fd for emulated operations.
struct FdInfo {
    bool known = false;              // regular was determined
    bool regular = false;            // a file: operations go to the thread pool
    bool read_would_block = false;   // wait before reading: the last read hit EAGAIN or was short
    bool write_would_block = false;
};

struct Posted {
    void (*cb)(void *);
    void *data;
};

// FIFO run queue: a ring of pointers, so that push and pop touch only the
// ring and the coroutine being queued (a linked list would also touch the
// neighbours' records, which is what dominates a switch at scale).
// Entries are never removed from the middle: a coroutine that leaves the
// queue otherwise (cancelled before it started) is skipped when popped.
template <typename T>
class RunQueue {
public:
    RunQueue() : buf_(64), mask_(63) {}
    bool empty() const noexcept { return head_ == tail_; }
    std::size_t size() const noexcept { return tail_ - head_; }
    [[gnu::always_inline]] void push(T *item) {
        if (tail_ - head_ == buf_.size()) [[unlikely]] grow();
        buf_[tail_++ & mask_] = item;
    }
    // Ahead of everything queued (high-priority coroutines). Positions stay
    // monotonic modulo the word size: head_ may step back below a position
    // recorded earlier, which only makes that pass longer.
    void push_front(T *item) {
        if (tail_ - head_ == buf_.size()) [[unlikely]] grow();
        buf_[--head_ & mask_] = item;
    }
    // Moves item, if queued, to the front; O(its distance from the front).
    bool move_to_front(T *item) noexcept {
        for (std::size_t pos = head_; pos != tail_; ++pos) {
            if (buf_[pos & mask_] != item) continue;
            for (std::size_t p = pos; p != head_; --p) buf_[p & mask_] = buf_[(p - 1) & mask_];
            buf_[head_ & mask_] = item;
            return true;
        }
        return false;
    }
    T *pop() noexcept { return head_ == tail_ ? nullptr : buf_[head_++ & mask_]; }
    // Monotonic positions: a pass over the queue ends when head() reaches
    // the tail() recorded at its start.
    std::size_t head() const noexcept { return head_; }
    std::size_t tail() const noexcept { return tail_; }
    // The entry i places after the head; i < size().
    T *peek(std::size_t i) const noexcept { return buf_[(head_ + i) & mask_]; }
    void clear() noexcept { head_ = tail_; }

private:
    // Positions stay monotonic (callers remember them); entries move to
    // their slot under the wider mask.
    void grow() {
        std::vector<T *> bigger(buf_.size() * 2);
        const std::size_t wider = bigger.size() - 1;
        for (std::size_t pos = head_; pos != tail_; ++pos) bigger[pos & wider] = buf_[pos & mask_];
        buf_.swap(bigger);
        mask_ = wider;
    }
    std::vector<T *> buf_;
    std::size_t mask_;
    std::size_t head_ = 0;
    std::size_t tail_ = 0;
};

}  // namespace tasync::detail

// ---------------------------------------------------------------- awaitables

struct tasync_awaitable {
    explicit tasync_awaitable(tasync::detail::AwaitableKind k, tasync_runtime *r) : kind(k), rt(r) {}
    virtual ~tasync_awaitable();
    tasync_awaitable(const tasync_awaitable &) = delete;
    tasync_awaitable &operator=(const tasync_awaitable &) = delete;

    tasync::detail::AwaitableKind kind;
    bool completed = false;
    // Its error was handed to someone who answers for it (rule S10): an
    // awaiter, a combinator, a group's reader. See tasync::detail::observe.
    bool observed = false;
    std::uint32_t refs = 1;
    tasync_runtime *rt;            // nullptr once the runtime is gone
    void *value = nullptr;         // outcome, owned
    void *error = nullptr;
    tasync::detail::WaiterList waiters;
    tasync::detail::Link all_link; // in the runtime's list of awaitables

    void add_waiter(tasync::detail::Waiter *w);
    void remove_waiter(tasync::detail::Waiter *w);
    // Records the outcome (references are taken over) and wakes every waiter.
    void complete(void *value, void *error);
    virtual void waiters_changed() {}
    // Frees the object: releases the outcome while the runtime lives.
    virtual void destroy();
    // Drops everything that ties the object to its runtime (runtime teardown).
    virtual void detach();
};

struct tasync_coroutine : tasync_awaitable {
    explicit tasync_coroutine(tasync_runtime *r) : tasync_awaitable(tasync::detail::AwaitableKind::Coroutine, r) {}
    ~tasync_coroutine() override;

    enum class State : std::uint8_t { New, Ready, Running, Waiting, Finished };

    // What a switch touches comes first, in one cache line: with thousands
    // of suspended coroutines every extra line per switch is a cache miss.
    tasync::detail::fcontext_t ctx = nullptr;
    tasync::detail::Wait *wait = nullptr;      // current suspension
    State state = State::New;
    bool cancel_pending = false;   // requested, not delivered yet
    bool stack_released = false;
    bool is_main = false;
    bool started = false;
    bool zombie = false;
    bool cancel_requested = false;
    std::uint32_t protect_depth = 0;
    bool runtime_ref = false;      // the runtime holds a reference (until the stack is gone)
    bool high_priority = false;    // queued at the front when it becomes runnable
    void *host_data = nullptr;

    std::uint64_t id = 0;
    void *cancel_error = nullptr;  // owned: the cancellation requested
    tasync::detail::Stack stack;
    tasync::detail::SwitchAnnotations ann;

    tasync_entry_cb entry = nullptr;
    void *arg = nullptr;
    void (*arg_release)(void *) = nullptr;

    tasync_scope *scope = nullptr;             // owned reference
    tasync::detail::Link scope_link;           // in scope->coroutines while unfinished

    tasync_location_t spawn_loc{};
    tasync_location_t suspend_loc{};

    // Structured concurrency (scope.cpp, group.cpp, context.cpp).
    bool finishing = false;        // its error is being propagated (S10): the outcome is final
    bool error_routed = false;     // S10 ran for its error (before_finish)
    // The outcome is final and the coroutine left its scope (finish_outcome);
    // `completed` (awaiters resume) follows once its finally handlers ran (C11).
    bool done = false;
    // Future semantics (S10): parked on its own stack, keeping its error for
    // later awaiters while the host holds handles (see hold_error).
    bool holding = false;
    bool release_hold = false;     // stop holding: the program reached its end
    bool escalating = false;       // counted active again while its held error escalates
    std::uint32_t handles = 0;     // references held through the ABI (the host's), not the core's own
    std::uint32_t finally_running = 0;         // its finally handlers that have not finished (C11)
    tasync_coroutine *finally_of = nullptr;    // on a finally handler: whose it is (referenced)
    bool holds_awaiters = false;   // on a finally handler: counted in finally_of->finally_running
    // On a finally handler: the owning scope (referenced), which counts the
    // handler among its unfinished coroutines and receives its error (C11).
    tasync_scope *charged = nullptr;
    bool held = false;             // created by a group, waiting for a concurrency slot
    tasync::detail::GroupTask *group_task = nullptr;
    std::vector<tasync_spawn_options_t> *finally_cbs = nullptr;  // C11
    tasync_context *context = nullptr;         // private context (X2), created on use

    void destroy() override;
    void detach() override;
};

struct tasync_future_impl;

// --------------------------------------------------------------------- scope

namespace tasync::detail {

// A host handler registered on a scope.
struct HandlerSlot {
    tasync_exception_handler_cb fn = nullptr;
    void *data = nullptr;
    void (*release)(void *) = nullptr;
    void reset() {
        if (release != nullptr) release(data);
        fn = nullptr;
        data = nullptr;
        release = nullptr;
    }
};

// A coroutine waiting on a scope: for completion (S4) or, after
// cancellation, for every coroutine (S5), collecting errors for its handler.
struct ScopeWaiter {
    enum Role : std::uint8_t { Completion, AfterCancel };
    Link link;
    Wait *wait = nullptr;
    Role role = Completion;
    tasync_scope_error_cb handler = nullptr;
    std::vector<void *> errors;  // owned, delivered to handler by the waiter
};
using ScopeWaiterList = List<ScopeWaiter, &ScopeWaiter::link>;

}  // namespace tasync::detail

struct tasync_context {
    // None: free-standing (tasync_context_create), counting its own
    // references and listed in its runtime's free_contexts.
    enum class Owner : std::uint8_t { Scope, Coroutine, None };
    tasync_context(Owner k, void *o) : owner_kind(k), owner(o) {}
    Owner owner_kind;
    void *owner;
    std::uint32_t refs = 0;          // None only
    tasync_runtime *rt = nullptr;    // None only; nullptr once the runtime is gone
    struct ObjectEntry {
        void *key;    // host value, retained
        void *value;  // host value, retained, may be NULL
    };
    std::unordered_map<std::string, void *> strings;
    std::unordered_map<void *, ObjectEntry> objects;
};

struct tasync_scope {
    std::uint32_t refs = 1;
    tasync_runtime *rt = nullptr;
    tasync_scope *parent = nullptr;            // owned reference
    std::uint64_t id = 0;
    bool is_global = false;
    bool closed = false;
    bool cancelled = false;
    bool disposed = false;
    bool completed = false;                    // S12 callbacks ran
    bool not_safely = false;                   // S8
    bool failed = false;                       // S10
    bool awaited = false;                      // S15: someone called await_completion
    tasync::detail::Link child_link;           // in parent->children
    tasync::detail::Link all_link;             // in rt->scopes
    tasync::detail::List<tasync_scope, &tasync_scope::child_link> children;
    tasync::detail::List<tasync_coroutine, &tasync_coroutine::scope_link> coroutines;
    std::size_t active = 0;                    // own unfinished coroutines, not zombie
    std::size_t zombies = 0;
    std::size_t sub_active = 0;                // the same over the subtree
    std::size_t sub_all = 0;                   // unfinished over the subtree, zombies included
    void *cancel_error = nullptr;              // owned
    void *failure = nullptr;                   // owned: the error that failed it (S10)
    // Errors no responsibility point has received yet (S10), with the
    // coroutine each came from (both referenced): they move to the parent
    // when the owner lets go of the scope (dispose) without awaiting it.
    struct Undelivered {
        void *error;
        tasync_coroutine *co;
    };
    std::vector<Undelivered> undelivered;
    tasync::detail::HandlerSlot exception_handler;
    tasync::detail::HandlerSlot child_handler;
    std::vector<tasync_spawn_options_t> finally_cbs;
    tasync::detail::ScopeWaiterList waiters;
    tasync::detail::TimerEntry dispose_timer;  // disposeAfterTimeout
    std::unique_ptr<tasync_context> context;
    void *host_data = nullptr;
    tasync_location_t created_at{};
    tasync_location_t disposed_at{};
};

// ------------------------------------------------------------------- timers

struct tasync_timer {
    tasync::detail::TimerEntry entry;
    tasync::detail::Link all_link;  // in rt->callback_timers
    tasync_runtime *rt = nullptr;
    tasync_timer_fn cb = nullptr;
    void *data = nullptr;
    std::uint64_t repeat = 0;
    bool in_callback = false;
    bool destroy_pending = false;
};

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

    // --- fork (DESIGN section 3). The atfork child handler only sets
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
    // runtime.cpp); when owner is given and has not settled yet, its
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
    void run_timers();

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
    void poll(bool may_block);

    // --- cross-thread
    std::mutex post_mu;
    std::vector<tasync::detail::Posted> posted;
    std::vector<tasync::detail::Posted> posted_swap;
    std::atomic<bool> has_posts{false};
    std::atomic<bool> polling{false};
    std::atomic<std::int64_t> posted_pending{0};
    std::atomic<std::int64_t> external_refs{0};
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
    unsigned thread_pool_size = 4;
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
// Rule S10 (Future semantics): aw's outcome was handed to someone who
// answers for its error (an awaiter, a combinator, a group's reader), so a
// coroutine's error will not escalate through the scope tree; a coroutine
// parked holding that error (hold_error) is released to finish. Idempotent.
void observe(tasync_awaitable *aw);
// True when caller may read aw's outcome now: aw completed, or caller is a
// finally handler of the coroutine aw (whose awaiters wait for it, C11).
bool outcome_ready(const tasync_awaitable *aw, const tasync_coroutine *caller);
// The thread's runtime (one per thread, DESIGN section 3).
extern thread_local tasync_runtime *tls_runtime;
// Installs the guard-page SIGSEGV handler and this thread's alternate signal
// stack (once per thread); see guard.cpp.
void install_overflow_handler(tasync_runtime *rt);
void remove_overflow_handler(tasync_runtime *rt);
}  // namespace tasync::detail
