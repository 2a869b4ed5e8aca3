// The operations a program step performs. Each runs on the coroutine whose
// step it is (self; main's record on the main coroutine), acts through the
// public ABI, checks what the call returned against the model, and returns
// a short text for the trace.
#pragma once

#include <functional>
#include <list>
#include <string>

#include "episode.hpp"

namespace tasync_random {

// Helpers the operations share (ops_coroutine.cpp).
std::string rc_text(int rc);
// Releases the value and error a call handed out (either may be NULL).
void release_outs(Episode &ep, void *v, void *e);
// A release an operation owes whatever happens to the coroutine running
// it: the action runs when the OnUnwind goes out of scope, or, when the
// runtime is destroyed while the coroutine is suspended (its stack is freed
// without being unwound, so no destructor on it runs), from
// Episode::run_abandoned after the destroy. State the action needs must
// not live on the coroutine's stack: capture it by value (a shared_ptr
// for containers).
class OnUnwind {
public:
    explicit OnUnwind(std::function<void()> action);
    ~OnUnwind();
    OnUnwind(const OnUnwind &) = delete;
    OnUnwind &operator=(const OnUnwind &) = delete;

private:
    Episode &ep_;
    std::list<std::function<void()>>::iterator it_;
};
// Holds an awaitable for the duration of one operation: a listed one (which
// another coroutine may release meanwhile) is retained, a temporary one
// (made for this operation) is adopted.
struct Pin {
    tasync_awaitable_t *aw = nullptr;
    explicit Pin(AwRec *a);
    Pin(const Pin &) = delete;
    Pin &operator=(const Pin &) = delete;

private:
    static tasync_awaitable_t *take(AwRec *a);
    OnUnwind release_;
};
// A new timeout awaitable; listed: the tester keeps it among its futures.
AwRec *new_timeout(Episode &ep, Rng &rng, bool listed);
// Whether an awaitable record has completed, asking the runtime for the
// kinds whose completion the model learns by observation.
bool completed_now(Episode &ep, AwRec *a);
// The cancellation side and EAWAIT_CANCELLED, shared by every await.
// Returns true when rc was one of those (the caller checks the rest).
bool common_outcome(Episode &ep, CoRec *self, int rc, void *e, AwRec *canc, const char *what);
CoRec *pick(Episode &ep, Rng &rng, const std::vector<CoRec *> &v);

// Coroutines, awaiting, cancellation (ops_coroutine.cpp).
std::string op_spawn(Episode &ep, CoRec *self, Op op);
std::string op_yield(Episode &ep, CoRec *self);
std::string op_park(Episode &ep, CoRec *self);
std::string op_resume(Episode &ep, CoRec *self);
std::string op_delay(Episode &ep, CoRec *self);
std::string op_await_coroutine(Episode &ep, CoRec *self);
std::string op_await_awaitable(Episode &ep, CoRec *self, bool timeout, AwRec *target = nullptr);
std::string op_await_any(Episode &ep, CoRec *self);
// G2: an await-many set (ops_await_many.cpp).
std::string op_await_many(Episode &ep, CoRec *self);
std::string op_future_create(Episode &ep, CoRec *self);
std::string op_future_settle(Episode &ep, CoRec *self);
std::string op_awaitable_release(Episode &ep, CoRec *self);
std::string op_cancel(Episode &ep, CoRec *self, bool self_cancel);
std::string op_protect_begin(Episode &ep, CoRec *self);
std::string op_protect_end(Episode &ep, CoRec *self);
std::string op_set_result(Episode &ep, CoRec *self);
std::string op_set_error(Episode &ep, CoRec *self);
std::string op_release_handle(Episode &ep, CoRec *self);
std::string op_coroutine_finally(Episode &ep, CoRec *self);
std::string op_context(Episode &ep, CoRec *self);
std::string op_introspect(Episode &ep, CoRec *self);
std::string op_shutdown(Episode &ep, CoRec *self);
std::string op_fail_to_global(Episode &ep, CoRec *self);

// Settles a future from a coroutine or a timer callback.
std::string settle_future(Episode &ep, AwRec *f, Rng &rng);
// Resumes a parked coroutine from a coroutine or a timer callback.
std::string resume_parked(Episode &ep, CoRec *target, Rng &rng);
// A cancellation awaitable for a wait (or NULL): a new timeout, or a future.
AwRec *pick_cancellation(Episode &ep, CoRec *self);

// Scopes (ops_scope.cpp).
std::string op_scope_create(Episode &ep, CoRec *self);
std::string op_scope_cancel(Episode &ep, CoRec *self);
std::string op_scope_dispose(Episode &ep, CoRec *self);
std::string op_scope_release(Episode &ep, CoRec *self);
std::string op_scope_await(Episode &ep, CoRec *self, bool after_cancel);
std::string op_scope_handler(Episode &ep, CoRec *self);
std::string op_scope_not_safely(Episode &ep, CoRec *self);
std::string op_scope_finally(Episode &ep, CoRec *self);
void release_scope(Episode &ep, ScopeRec *s, bool dispose_first);
void install_default_handlers(Episode &ep, ScopeRec *s);

// Task groups (ops_group.cpp).
std::string op_group_create(Episode &ep, CoRec *self);
std::string op_group_spawn(Episode &ep, CoRec *self);
std::string op_group_await(Episode &ep, CoRec *self);
std::string op_group_wait_next(Episode &ep, CoRec *self);
std::string op_group_release(Episode &ep, CoRec *self);
void release_group(Episode &ep, GroupRec *g);

// Pipes, completion operations, offload, callback timers (ops_io.cpp).
std::string op_pipe_create(Episode &ep, CoRec *self);
std::string op_pipe_write(Episode &ep, CoRec *self);
std::string op_pipe_read(Episode &ep, CoRec *self);
std::string op_await_fd(Episode &ep, CoRec *self);
std::string op_op_read(Episode &ep, CoRec *self);
std::string op_op_write(Episode &ep, CoRec *self);
std::string op_pipe_close(Episode &ep, CoRec *self);
std::string op_offload(Episode &ep, CoRec *self);
std::string op_timer_start(Episode &ep, CoRec *self);
std::string op_timer_stop(Episode &ep, CoRec *self);
void write_pipe(Episode &ep, PipeRec *p, std::size_t n);
void close_pipe(Episode &ep, PipeRec *p, bool write_end_only);
void destroy_timer(Episode &ep, TimerRec *t);

// Channels (ops_channel.cpp, rule T1).
std::string op_chan_create(Episode &ep, CoRec *self);
std::string op_chan_send(Episode &ep, CoRec *self);
std::string op_chan_recv(Episode &ep, CoRec *self);
std::string op_chan_try(Episode &ep, CoRec *self);
std::string op_chan_async(Episode &ep, CoRec *self);
std::string op_chan_await_op(Episode &ep, CoRec *self);
std::string op_chan_op_drop(Episode &ep, CoRec *self);
std::string op_chan_close(Episode &ep, CoRec *self);
std::string op_chan_release(Episode &ep, CoRec *self);

// Pools (ops_pool.cpp, rule T3).
std::string op_pool_create(Episode &ep, CoRec *self);
std::string op_pool_acquire(Episode &ep, CoRec *self);
std::string op_pool_give_back(Episode &ep, CoRec *self);
std::string op_pool_close(Episode &ep, CoRec *self);
std::string op_pool_release(Episode &ep, CoRec *self);

}  // namespace tasync_random
