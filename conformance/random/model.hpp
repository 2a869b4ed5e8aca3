// The randomized tester's model: one record per thing the tester made
// (coroutines, scopes, futures and timeouts, groups, pipes, timers, finally
// registrations, exception handlers). The episode updates the records as it
// acts and as it observes the runtime, and checks every observation against
// them (episode.cpp).
#pragma once

#include <tasync/tasync.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "clock.hpp"
#include "host.hpp"
#include "rng.hpp"

namespace tasync_random {

// The operations a program step can perform (program.cpp draws them).
enum class Op : std::uint8_t {
    Spawn,             // into the current scope
    SpawnInScope,      // into a scope the tester holds
    SpawnInGroup,      // into a task group, with or without a key
    Yield,
    Park,              // tasync_suspend until someone resumes it
    Resume,            // resumes a parked coroutine with a value or an error
    Delay,
    AwaitCoroutine,
    AwaitFuture,
    AwaitTimeout,
    AwaitAny,
    AwaitMany,         // an await-many set (G2)
    FutureCreate,
    FutureSettle,      // resolve or reject
    AwaitableRelease,  // the tester drops a future or timeout
    Cancel,            // another coroutine
    CancelSelf,
    ProtectBegin,
    ProtectEnd,
    SetResult,
    SetError,
    ReleaseHandle,
    ScopeCreate,
    ScopeCancel,
    ScopeDispose,
    ScopeRelease,
    ScopeAwait,
    ScopeAwaitAfterCancel,
    ScopeHandler,
    ScopeNotSafely,
    ScopeFinally,
    CoroutineFinally,
    GroupCreate,
    GroupAwait,        // all / race / any
    GroupWaitNext,
    GroupRelease,
    PipeCreate,
    PipeWrite,
    PipeRead,
    AwaitFd,
    OpRead,
    OpWrite,
    PipeClose,
    Offload,
    TimerStart,
    TimerStop,
    Context,
    Introspect,
    Shutdown,          // tasync_runtime_shutdown
    FailToGlobal,      // a coroutine of the global scope ends with an error
    // Channels (T1, ops_channel.cpp).
    ChanCreate,
    ChanSend,          // tasync_channel_send, maybe with a cancellation or a timeout
    ChanRecv,
    ChanTry,           // try_send or try_recv
    ChanAsync,         // send_async or recv_async: an operation the tester keeps
    ChanAwaitOp,       // awaits a kept operation
    ChanOpDrop,        // withdraws (op_cancel) or releases a kept operation
    ChanClose,
    ChanRelease,
    // Pools (T3, ops_pool.cpp).
    PoolCreate,
    PoolAcquire,       // acquire (maybe with a cancellation or a timeout) or try_acquire
    PoolGiveBack,
    PoolClose,
    PoolRelease,
    Count_
};

const char *op_name(Op op);

struct CoRec;
struct ScopeRec;
struct GroupRec;
struct AwRec;
struct PipeRec;
struct FinRec;

// An error object the model expects without knowing it yet (one the core
// creates, such as a scope's cancellation): bound to the first object
// observed, then every later observation must be that same object.
struct ErrSlot {
    Error *e = nullptr;
    bool core_made = false;  // the core creates it: any cancellation-kind object it made binds
    bool any = false;        // learned, cause unknown: any cancellation-kind object binds
};

enum class CoKind : std::uint8_t { Main, Task, GroupTask, Finally };

enum class CoState : std::uint8_t {
    Registered,  // a finally callback not spawned yet
    New,         // spawned, not started (queued, or held by a group)
    Running,     // its entry runs (it may be the current coroutine or suspended in a wait)
    Ending,      // its entry returned; the core completes it (handlers may run first)
    Done         // completed (or cancelled before it started)
};

// What a suspended coroutine waits for, as the model knows it.
enum class WaitKind : std::uint8_t {
    None,
    Yield,
    Park,
    AwaitCoroutine,
    AwaitAwaitable,  // a future, a timeout or a group awaitable
    AwaitAny,
    AwaitMany,       // an await-many set (G2)
    Delay,
    Fd,
    Op,
    Offload,
    Scope,
    ScopeAfterCancel,
    GroupNext,
    ChanSend,        // tasync_channel_send (T1)
    ChanRecv,        // tasync_channel_recv
    ChanOp,          // awaiting a channel operation
    PoolAcquire,     // tasync_pool_acquire (T3)
    Handler          // not a wait: an exception handler runs on this stack
};

struct WaitRec {
    WaitKind kind = WaitKind::None;
    std::uint64_t started_op = 0;
    bool active = false;
    CoRec *co_target = nullptr;
    AwRec *aw_target = nullptr;
    std::vector<CoRec *> any_cos;   // AwaitAny: element i is a coroutine, or
    std::vector<AwRec *> any_aws;   // an awaitable
    AwRec *cancellation = nullptr;  // the cancellation awaitable, if any
    ScopeRec *scope = nullptr;
    GroupRec *group = nullptr;
    std::size_t index = 0;
    PipeRec *pipe = nullptr;
    unsigned events = 0;
    std::uint64_t pipe_epoch = 0;   // the pipe's write epoch when the wait began
    std::uint64_t scope_epoch = 0;  // the scope's zero-count epoch when the wait began
    std::uint64_t deadline_ns = 0;  // Delay
    bool protected_wait = false;    // began inside a protect section
    bool keeps_result = false;      // the outcome of the operation wins over a cancellation
    // Park
    bool resumed = false;
    Value *resume_value = nullptr;
    Error *resume_error = nullptr;
    // Cancellation while waiting.
    bool must_cancel = false;       // a cancellation arrived while it waited: -ECANCELED expected
    bool may_cancel = false;        // one may have arrived (learned, or a race)
    bool forced = false;            // a forced wake-up may end it (C14, C15 phase two, S9)
};

struct PoolRec;

struct CoRec {
    std::uint64_t tid = 0;   // the tester's id (c<N> in traces)
    CoKind kind = CoKind::Task;
    int depth = 0;
    Rng rng;
    std::vector<Op> program;
    std::size_t pc = 0;
    std::uint64_t spawn_op = 0;

    tasync_coroutine_t *core = nullptr;    // borrowed; valid until freed
    tasync_coroutine_t *handle = nullptr;  // the tester's reference, if it keeps one
    std::uint64_t core_id = 0;
    ScopeRec *scope = nullptr;
    GroupRec *group = nullptr;
    bool held = false;      // a group held it back for a concurrency slot

    CoState state = CoState::New;
    bool entered = false;
    bool freed = false;
    int arg_released = 0;
    bool zombie = false;
    bool finishing = false;  // entry returned; handlers may still run on its stack
    int handlers = 0;        // exception handlers running on its stack
    std::uint64_t done_seq = 0;

    // Cancellation.
    bool cancel_requested = false;
    bool cancel_maybe = false;    // a cancellation the model could not attribute may exist
    bool cancel_pending = false;  // requested, not yet delivered at a suspension point
    ErrSlot *cancel_error = nullptr;
    bool cancelled_before_start = false;
    int protect_depth = 0;

    // What its program set, and its final outcome once it returned.
    Value *result = nullptr;
    Error *error = nullptr;
    bool routed = false;
    int escalations_entered = 0;  // entries after completion, to escalate a held error (S10)
    bool in_route = false;   // inside tasync_coroutine_route_error, called from its entry
    // Completed, it left the stack it held its error on (S10): resumed
    // from the hold (entered again), or its entry returned after
    // route_error completed it. Once no handler runs on that stack, the
    // core has let go of its scope (C11: a finally callback registered
    // then is charged to nobody).
    bool hold_ended = false;
    // A handler heard of its error on its own stack before the core
    // completed it (S10: a supervisor hears at once while a handle is
    // alive; nobody could await it): the error is not held, the core lets
    // go of its scope when it completes (C11: a finally callback
    // registered then is charged to nobody).
    bool heard_at_once = false;
    // An awaiter received its outcome (an await of it, await_any choosing
    // it, an await set taking it: C4). A failure received so never flows
    // (S10): the core holds no error for it and lets go of its scope when
    // it completes (C11: a finally callback registered then is charged to
    // nobody).
    bool outcome_taken = false;
    bool must_fail = false;  // FailToGlobal: its SetError step always runs
    bool spawn_failed = false;  // the spawn was refused: no coroutine ever existed
    bool outcome_known = false;
    bool outcome_failed = false;
    Value *outcome_value = nullptr;
    ErrSlot *outcome_error = nullptr;

    WaitRec wait;
    FinRec *fin = nullptr;             // for finally callbacks: the registration
    ScopeRec *charged = nullptr;       // finally callbacks: the scope they are charged to (C11)
    CoRec *holds = nullptr;            // finally callbacks: the coroutine whose awaiters wait for it (C11)
    int finals_running = 0;            // its finally callbacks its awaiters still wait for (C11)
    bool settled = false;              // completed and its awaiters (a group too) may resume
    std::vector<FinRec *> finals;      // callbacks registered on this coroutine
    PoolRec *create_failed = nullptr;  // a pool's create failed in its acquire (T3)

    bool unfinished() const { return state != CoState::Done && state != CoState::Registered; }
};

// A registered exception handler (S10, S11): its data is this record.
struct HandlerRec {
    ScopeRec *scope = nullptr;
    bool child = false;
    int behaviour = 0;   // 0 handle, 1 rethrow the error, 2 raise a new error, 3 yield then handle
    int released = 0;
    int calls = 0;
    bool installed = false;
};

struct ScopeRec {
    std::uint64_t sid = 0;
    tasync_scope_t *core = nullptr;  // borrowed while alive
    bool is_global = false;
    GroupRec *group = nullptr;       // the group owning it
    bool owned = false;              // the host's (owner's) reference is held
    bool observed = false;           // the tester's observer reference is held
    ScopeRec *parent = nullptr;
    std::vector<ScopeRec *> children;   // creation order
    std::vector<CoRec *> coroutines;    // unfinished, spawn order
    std::uint64_t created_op = 0;
    Rng rng;

    bool dead = false;          // freed: its parent stopped listing it
    bool closed = false;
    bool cancelled = false;
    bool disposed = false;
    bool completed = false;
    bool not_safely = false;
    bool failed = false;        // observed
    bool awaited = false;
    bool maybe_cancelled = false;  // a cancellation the model cannot attribute may have hit it
    ErrSlot *cancel_error = nullptr;
    std::uint64_t dispose_deadline = 0;  // after-timeout: when the subtree is cancelled
    bool dispose_timer = false;

    long active = 0;   // subtree counts, as the core keeps them
    long all = 0;
    std::uint64_t zero_active_epoch = 0;
    std::uint64_t zero_all_epoch = 0;
    int waiters = 0;

    HandlerRec *handler = nullptr;
    HandlerRec *child_handler = nullptr;
    std::vector<FinRec *> finals;

    bool queryable() const { return (owned || observed || is_global) && core != nullptr; }
};

// A future, a timeout, or an all/race/any awaitable of a group.
struct AwRec {
    enum class Kind : std::uint8_t { Future, Timeout, GroupAll, GroupRace, GroupAny } kind = Kind::Future;
    std::uint64_t aid = 0;
    tasync_awaitable_t *aw = nullptr;  // the tester's reference
    bool held = true;
    bool completed = false;            // as the model knows it
    bool failed = false;
    Value *value = nullptr;
    Error *error = nullptr;
    std::uint64_t created_ns = 0;      // timeouts: created at
    std::uint64_t duration_ns = 0;
    GroupRec *group = nullptr;
};

struct GroupRec {
    std::uint64_t gid = 0;
    tasync_group_t *g = nullptr;  // the tester's reference
    bool held = true;
    ScopeRec *scope = nullptr;
    std::uint32_t concurrency = 0;
    std::vector<CoRec *> tasks;      // spawn order
    std::vector<CoRec *> completed;  // completion order
    std::int64_t next_int = 0;
    std::set<std::int64_t> ints;
    std::set<std::string> strs;
    std::size_t cursor = 0;          // wait_next iteration
    std::uint64_t completed_epoch = 0;
    // G1: the tester released its reference. The group lets go (tasks not
    // started never start, running ones finish as zombies of its scope,
    // errors no reader handled flow from its scope) once its last reference
    // goes, which an awaitable of it may delay: the model learns that from
    // its scope's flags, through a reference of its own (scope_ref).
    bool released = false;
    bool scope_ref = false;
    bool let_go = false;
};

// True when an error of c may flow through S10 (a group's tasks answer to
// their group until it lets go, G1).
inline bool errors_flow(const CoRec *c) {
    return c->kind != CoKind::GroupTask || c->group == nullptr || c->group->released;
}

struct PipeRec {
    std::uint64_t pid = 0;
    int rfd = -1;
    int wfd = -1;
    bool socket = false;
    std::uint64_t written = 0;  // bytes written so far: byte i is pattern(i)
    std::uint64_t read = 0;     // bytes read so far
    std::uint64_t write_epoch = 0;
    bool reader_busy = false;   // a read operation is in flight
    bool writer_busy = false;
    std::uint64_t inflight_write = 0;  // bytes a write operation in flight may have written already
    int fd_waiters = 0;
    int write_waiters = 0;      // of fd_waiters, those waiting for the write end
    bool write_closed = false;  // the write end is closed: readers meet the end of file
    bool feeder = false;        // a timer writes to it while readers wait, reads while writers do
    bool closed = false;
    unsigned char pattern(std::uint64_t i) const { return static_cast<unsigned char>(i * 131 + pid * 7 + 1); }
};

// A coroutine or scope on_finally registration (C11, S12).
struct FinRec {
    CoRec *target_co = nullptr;
    ScopeRec *target_scope = nullptr;
    CoRec *cb = nullptr;  // the callback's coroutine record
    std::uint64_t registered_op = 0;
    bool must_run = false;  // its target completed while the runtime ran
};

// A callback timer (tasync_timer_*).
struct TimerRec {
    std::uint64_t tmid = 0;
    tasync_timer_t *t = nullptr;
    bool armed = false;
    bool destroyed = false;
    bool ref = true;
    std::uint64_t armed_ns = 0;
    std::uint64_t timeout_ns = 0;
    std::uint64_t repeat_ns = 0;
    int fires = 0;
    int max_fires = 1;
    int action = 0;
    Rng rng;
};

// Work handed to tasync_offload: lives on the heap so that a run after the
// wait ended is noticed. Its duration is virtual (clock.hpp).
struct OffloadRec {
    std::atomic<int> runs{0};
    std::atomic<int> running{0};
    int runs_at_return = -1;
    Job job;
};

// A value sent on a channel (T1), as the model knows it. Values are host
// objects that live until the episode ends, so their addresses identify them.
struct SentRec {
    enum class State : std::uint8_t {
        InFlight,  // its send has not returned (it may be taken already)
        Accepted,  // its send returned success; not received yet
        Failed,    // its send failed: it must never be received
        Received
    } state = State::InFlight;
    std::uint64_t seq = 0;  // the order the sends began in: the channel's order
};

struct ChanRec {
    std::uint64_t chid = 0;
    tasync_channel_t *ch = nullptr;  // the tester's reference while held
    bool held = true;
    std::uint64_t capacity = 0;
    bool closed = false;             // the tester closed it
    std::uint64_t next_seq = 0;
    std::map<const Value *, SentRec> sent;
    long accepted_unreceived = 0;    // Accepted values
    int senders = 0;                 // coroutines inside tasync_channel_send on it
    int receivers = 0;               // and inside tasync_channel_recv
    std::map<const CoRec *, std::uint64_t> last_seq;  // per receiving coroutine: what it got last (FIFO)
};

// A channel operation the tester keeps (send_async, recv_async).
struct ChanOpRec {
    std::uint64_t oid = 0;
    ChanRec *chan = nullptr;
    bool send = false;
    const Value *value = nullptr;     // a send's
    tasync_awaitable_t *aw = nullptr; // the tester's reference while held
    bool held = true;
    bool done = false;                // its completion was learned
    int awaiters = 0;                 // coroutines awaiting it (each holds a reference)
};

// A pool (T3) and what its callbacks decided. The callbacks tell the model
// exactly when resources are created and destroyed.
struct PoolRec {
    std::uint64_t plid = 0;
    tasync_pool_t *p = nullptr;      // the tester's reference while held
    bool held = true;
    std::uint32_t min = 0;
    std::uint32_t max = 1;
    bool closed = false;             // the tester closed it
    Rng rng;                         // the callbacks' decisions
    int create_fail = 0;             // percentages
    int create_yield = 0;
    int refuse_acquire = 0;
    int refuse_release = 0;
    std::set<const Value *> alive;   // created, not destroyed
    std::map<const Value *, CoRec *> lent;  // to whom (nullptr: the main flow outside its entry)
    int creating = 0;                // create callbacks running
    int acquirers = 0;               // coroutines inside tasync_pool_acquire
    long created = 0;
};

// A context entry the tester stored (X1, X2).
struct CtxEntry {
    ScopeRec *scope = nullptr;  // the owner: a scope,
    CoRec *co = nullptr;        // or a coroutine
    std::string key;
    Value *value = nullptr;
};

}  // namespace tasync_random
