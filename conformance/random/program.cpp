// Programs: the random list of steps each coroutine runs (drawn from its own
// generator, so that the programs of an episode depend on its seed only),
// the coroutine entry that runs them, and the dispatch of one step.
#include <atomic>
#include <cstdio>

#include "episode.hpp"
#include "expect.hpp"
#include "ops.hpp"

namespace tasync_random {

namespace {

thread_local Episode *tl_episode = nullptr;
std::atomic<Episode *> g_running{nullptr};  // for the fatal-signal report

struct Weight {
    Op op;
    unsigned main;  // weight in the main program
    unsigned task;  // weight in a spawned coroutine's program
};

// Relative frequencies; an episode scales each by a factor of its own.
constexpr Weight kWeights[] = {
    {Op::Spawn, 14, 8},
    {Op::SpawnInScope, 10, 6},
    {Op::SpawnInGroup, 6, 4},
    {Op::Yield, 6, 10},
    {Op::Park, 1, 3},
    {Op::Resume, 5, 4},
    {Op::Delay, 4, 6},
    {Op::AwaitCoroutine, 4, 6},
    {Op::AwaitFuture, 3, 5},
    {Op::AwaitTimeout, 1, 2},
    {Op::AwaitAny, 3, 4},
    {Op::FutureCreate, 4, 3},
    {Op::FutureSettle, 5, 4},
    {Op::AwaitableRelease, 2, 1},
    {Op::Cancel, 4, 4},
    {Op::CancelSelf, 0, 1},
    {Op::ProtectBegin, 1, 3},
    {Op::SetResult, 0, 4},
    {Op::SetError, 0, 4},
    {Op::ReleaseHandle, 4, 2},
    {Op::ScopeCreate, 5, 2},
    {Op::ScopeCancel, 2, 1},
    {Op::ScopeDispose, 2, 1},
    {Op::ScopeRelease, 2, 1},
    {Op::ScopeAwait, 3, 2},
    {Op::ScopeAwaitAfterCancel, 1, 1},
    {Op::ScopeHandler, 2, 1},
    {Op::ScopeNotSafely, 1, 0},
    {Op::ScopeFinally, 1, 1},
    {Op::CoroutineFinally, 1, 1},
    {Op::GroupCreate, 2, 1},
    {Op::GroupAwait, 2, 2},
    {Op::GroupWaitNext, 2, 2},
    {Op::GroupRelease, 1, 0},
    {Op::PipeCreate, 1, 1},
    {Op::PipeWrite, 3, 3},
    {Op::PipeRead, 2, 2},
    {Op::AwaitFd, 2, 3},
    {Op::OpRead, 2, 2},
    {Op::OpWrite, 1, 2},
    {Op::PipeClose, 1, 0},
    {Op::Offload, 1, 2},
    {Op::TimerStart, 2, 1},
    {Op::TimerStop, 1, 1},
    {Op::Context, 2, 2},
    {Op::Introspect, 1, 1},
    {Op::AwaitMany, 3, 4},
    {Op::ChanCreate, 1, 1},
    {Op::ChanSend, 3, 4},
    {Op::ChanRecv, 3, 4},
    {Op::ChanTry, 2, 2},
    {Op::ChanAsync, 1, 1},
    {Op::ChanAwaitOp, 1, 1},
    {Op::ChanOpDrop, 1, 1},
    {Op::ChanClose, 1, 0},
    {Op::ChanRelease, 1, 0},
    {Op::PoolCreate, 1, 1},
    {Op::PoolAcquire, 3, 4},
    {Op::PoolGiveBack, 3, 4},
    {Op::PoolClose, 1, 0},
    {Op::PoolRelease, 1, 0},
};

unsigned weight_of(const Weight &w, CoKind kind) {
    if (!expect::kFinallyHandlersModelled && (w.op == Op::ScopeFinally || w.op == Op::CoroutineFinally)) return 0;
    return kind == CoKind::Main ? w.main : w.task;
}

}  // namespace

const char *op_name(Op op) {
    switch (op) {
        case Op::Spawn: return "Spawn";
        case Op::SpawnInScope: return "SpawnInScope";
        case Op::SpawnInGroup: return "SpawnInGroup";
        case Op::Yield: return "Yield";
        case Op::Park: return "Park";
        case Op::Resume: return "Resume";
        case Op::Delay: return "Delay";
        case Op::AwaitCoroutine: return "AwaitCoroutine";
        case Op::AwaitFuture: return "AwaitFuture";
        case Op::AwaitTimeout: return "AwaitTimeout";
        case Op::AwaitAny: return "AwaitAny";
        case Op::AwaitMany: return "AwaitMany";
        case Op::FutureCreate: return "FutureCreate";
        case Op::FutureSettle: return "FutureSettle";
        case Op::AwaitableRelease: return "AwaitableRelease";
        case Op::Cancel: return "Cancel";
        case Op::CancelSelf: return "CancelSelf";
        case Op::ProtectBegin: return "ProtectBegin";
        case Op::ProtectEnd: return "ProtectEnd";
        case Op::SetResult: return "SetResult";
        case Op::SetError: return "SetError";
        case Op::ReleaseHandle: return "ReleaseHandle";
        case Op::ScopeCreate: return "ScopeCreate";
        case Op::ScopeCancel: return "ScopeCancel";
        case Op::ScopeDispose: return "ScopeDispose";
        case Op::ScopeRelease: return "ScopeRelease";
        case Op::ScopeAwait: return "ScopeAwait";
        case Op::ScopeAwaitAfterCancel: return "ScopeAwaitAfterCancel";
        case Op::ScopeHandler: return "ScopeHandler";
        case Op::ScopeNotSafely: return "ScopeNotSafely";
        case Op::ScopeFinally: return "ScopeFinally";
        case Op::CoroutineFinally: return "CoroutineFinally";
        case Op::GroupCreate: return "GroupCreate";
        case Op::GroupAwait: return "GroupAwait";
        case Op::GroupWaitNext: return "GroupWaitNext";
        case Op::GroupRelease: return "GroupRelease";
        case Op::PipeCreate: return "PipeCreate";
        case Op::PipeWrite: return "PipeWrite";
        case Op::PipeRead: return "PipeRead";
        case Op::AwaitFd: return "AwaitFd";
        case Op::OpRead: return "OpRead";
        case Op::OpWrite: return "OpWrite";
        case Op::PipeClose: return "PipeClose";
        case Op::Offload: return "Offload";
        case Op::TimerStart: return "TimerStart";
        case Op::TimerStop: return "TimerStop";
        case Op::Context: return "Context";
        case Op::Introspect: return "Introspect";
        case Op::Shutdown: return "Shutdown";
        case Op::FailToGlobal: return "FailToGlobal";
        case Op::ChanCreate: return "ChanCreate";
        case Op::ChanSend: return "ChanSend";
        case Op::ChanRecv: return "ChanRecv";
        case Op::ChanTry: return "ChanTry";
        case Op::ChanAsync: return "ChanAsync";
        case Op::ChanAwaitOp: return "ChanAwaitOp";
        case Op::ChanOpDrop: return "ChanOpDrop";
        case Op::ChanClose: return "ChanClose";
        case Op::ChanRelease: return "ChanRelease";
        case Op::PoolCreate: return "PoolCreate";
        case Op::PoolAcquire: return "PoolAcquire";
        case Op::PoolGiveBack: return "PoolGiveBack";
        case Op::PoolClose: return "PoolClose";
        case Op::PoolRelease: return "PoolRelease";
        case Op::Count_: break;
    }
    return "?";
}

Op Episode::draw_op(Rng &rng, CoRec *self) {
    const CoKind kind = self != nullptr ? self->kind : CoKind::Task;
    if (kind == CoKind::Main) {
        // Rare whole-runtime events, placed by the episode's seed.
        if (shutdown_at_ != 0 && op_index >= shutdown_at_) {
            shutdown_at_ = 0;
            return Op::Shutdown;
        }
        if (fail_global_at_ != 0 && op_index >= fail_global_at_) {
            fail_global_at_ = fail_global_again_ ? op_index + 1 + rng.below(50) : 0;
            fail_global_again_ = false;
            return Op::FailToGlobal;
        }
    }
    unsigned total = 0;
    for (std::size_t i = 0; i < sizeof(kWeights) / sizeof(kWeights[0]); ++i) total += weight_of(kWeights[i], kind) * scale_[i];
    unsigned pick = rng.below(total);
    for (std::size_t i = 0; i < sizeof(kWeights) / sizeof(kWeights[0]); ++i) {
        unsigned w = weight_of(kWeights[i], kind) * scale_[i];
        if (pick < w) return kWeights[i].op;
        pick -= w;
    }
    return Op::Yield;
}

std::vector<Op> Episode::make_program(Rng &rng, CoKind kind, int depth) {
    std::vector<Op> p;
    if (kind == CoKind::Finally) {
        const unsigned n = rng.below(3);
        for (unsigned i = 0; i < n; ++i) p.push_back(rng.chance(50) ? Op::Yield : Op::Delay);
        return p;
    }
    unsigned n = rng.below(depth >= kMaxDepth ? 4 : 9);
    int protect = 0;
    for (unsigned i = 0; i < n; ++i) {
        Op op = draw_op(rng, nullptr);
        if (depth >= kMaxDepth && (op == Op::Spawn || op == Op::SpawnInScope || op == Op::SpawnInGroup)) op = Op::Yield;
        if (op == Op::ProtectBegin) {
            if (protect >= 2) op = Op::Yield;
            else ++protect;
        }
        p.push_back(op);
        if (protect > 0 && rng.chance(35)) {
            p.push_back(Op::ProtectEnd);
            --protect;
        }
    }
    while (protect-- > 0) p.push_back(Op::ProtectEnd);
    return p;
}

tasync_spawn_options_t Episode::spawn_options(CoRec *c, tasync_scope_t *scope) {
    tasync_spawn_options_t o{};
    o.size = sizeof(o);
    o.entry = &Episode::entry;
    o.arg = c;
    o.arg_release = &Episode::arg_release;
    o.scope = scope;
    o.host_data = c;
    return o;
}

void Episode::entry(tasync_coroutine_t *self, void *arg) {
    auto *c = static_cast<CoRec *>(arg);
    Episode &ep = *tl_episode;
    RANDOM_CHECK(ep, !c->entered, "C1: the entry of " << ep.name(c) << " ran twice");
    RANDOM_CHECK(ep, !c->cancelled_before_start,
                 "C7: the entry of " << ep.name(c) << " ran although it was cancelled before it started");
    RANDOM_CHECK(ep, c->core == self || c->core == nullptr, "the entry of " << ep.name(c) << " got another coroutine");
    c->core = self;
    c->entered = true;
    c->held = false;
    if (c->state == CoState::New) c->state = CoState::Running;
    ep.trace("   " + ep.name(c) + " starts");
    if (c->fin != nullptr && !ep.failed) {
        FinRec *f = c->fin;
        if (f->target_co != nullptr)
            RANDOM_CHECK(ep, f->target_co->state == CoState::Done || f->target_co->state == CoState::Ending,
                         "C11: the finally callback " << ep.name(c) << " of " << ep.name(f->target_co)
                                                      << " runs before its coroutine completed");
        if (f->target_scope != nullptr && !f->target_scope->is_global)
            RANDOM_CHECK(ep, f->target_scope->completed,
                         "S12: the finally callback " << ep.name(c) << " of " << ep.name(f->target_scope)
                                                      << " runs before its scope completed");
    }
    ep.check_world();
    ep.run_program(c);
    // A finally callback's own protection (C11) is the core's to end.
    while (c->protect_depth > (c->kind == CoKind::Finally ? 1 : 0)) ep.exec(c, Op::ProtectEnd);
    ep.sync();
    // The outcome is final now (C4, C7, C8): the error it set, else its
    // cancellation, else its result.
    c->outcome_known = true;
    if (c->error != nullptr) {
        c->outcome_failed = true;
        c->outcome_error = ep.slot(c->error, false);
        const bool cancellation = c->error->kind == TASYNC_ERROR_CANCELLATION;
        if (!cancellation && errors_flow(c)) ++ep.error_candidates;
    } else if (c->cancel_requested) {
        c->outcome_failed = true;
        c->outcome_error = c->cancel_error;
    } else {
        c->outcome_value = c->result;
    }
    if (c->error != nullptr && !c->routed && c->rng.chance(30)) {
        // S10 now, while the entry still runs (the PHP host's way).
        // With a handle held and nobody awaiting it, the core completes the
        // coroutine here and parks it on its own stack until the error is
        // observed or the last handle goes (S10's Future semantics): sync()
        // learns that completion from its flags.
        c->routed = true;
        c->finishing = true;
        c->in_route = true;
        ++c->handlers;
        const int rc = tasync_coroutine_route_error(self);
        --c->handlers;
        c->in_route = false;
        RANDOM_CHECK(ep, rc == 0, "tasync_coroutine_route_error returned " << rc);
        ep.learn_escalations();
        if (c->state == CoState::Done) {
            ep.trace("   " + ep.name(c) + " returns (completed inside route_error)");
            c->hold_ended = true;
            return;
        }
    }
    c->state = CoState::Ending;
    c->finishing = true;
    ep.ending_.push_back(c);
    ep.trace("   " + ep.name(c) + " returns");
}

void Episode::arg_release(void *arg) {
    auto *c = static_cast<CoRec *>(arg);
    Episode &ep = *tl_episode;
    ++c->arg_released;
    RANDOM_CHECK(ep, c->arg_released == 1, "arg_release of " << ep.name(c) << " ran " << c->arg_released << " times");
    RANDOM_CHECK(ep, !c->entered || c->state == CoState::Ending || c->state == CoState::Done || ep.destroyed,
                 "arg_release of " << ep.name(c) << " ran while its entry had not returned");
}

void Episode::run_program(CoRec *self) {
    while (self->pc < self->program.size() && !out_of_budget()) exec(self, self->program[self->pc++]);
}

void Episode::exec(CoRec *self, Op op) {
    const std::uint64_t my = ++op_index;
    char head[96];
    std::snprintf(head, sizeof(head), "#%llu %s %s", static_cast<unsigned long long>(my), name(self).c_str(),
                  op_name(op));
    trace(head);
    std::string what;
    switch (op) {
        case Op::Spawn:
        case Op::SpawnInScope: what = op_spawn(*this, self, op); break;
        case Op::SpawnInGroup: what = op_group_spawn(*this, self); break;
        case Op::Yield: what = op_yield(*this, self); break;
        case Op::Park: what = op_park(*this, self); break;
        case Op::Resume: what = op_resume(*this, self); break;
        case Op::Delay: what = op_delay(*this, self); break;
        case Op::AwaitCoroutine: what = op_await_coroutine(*this, self); break;
        case Op::AwaitFuture: what = op_await_awaitable(*this, self, false); break;
        case Op::AwaitTimeout: what = op_await_awaitable(*this, self, true); break;
        case Op::AwaitAny: what = op_await_any(*this, self); break;
        case Op::AwaitMany: what = op_await_many(*this, self); break;
        case Op::FutureCreate: what = op_future_create(*this, self); break;
        case Op::FutureSettle: what = op_future_settle(*this, self); break;
        case Op::AwaitableRelease: what = op_awaitable_release(*this, self); break;
        case Op::Cancel: what = op_cancel(*this, self, false); break;
        case Op::CancelSelf: what = op_cancel(*this, self, true); break;
        case Op::ProtectBegin: what = op_protect_begin(*this, self); break;
        case Op::ProtectEnd: what = op_protect_end(*this, self); break;
        case Op::SetResult: what = op_set_result(*this, self); break;
        case Op::SetError: what = op_set_error(*this, self); break;
        case Op::ReleaseHandle: what = op_release_handle(*this, self); break;
        case Op::ScopeCreate: what = op_scope_create(*this, self); break;
        case Op::ScopeCancel: what = op_scope_cancel(*this, self); break;
        case Op::ScopeDispose: what = op_scope_dispose(*this, self); break;
        case Op::ScopeRelease: what = op_scope_release(*this, self); break;
        case Op::ScopeAwait: what = op_scope_await(*this, self, false); break;
        case Op::ScopeAwaitAfterCancel: what = op_scope_await(*this, self, true); break;
        case Op::ScopeHandler: what = op_scope_handler(*this, self); break;
        case Op::ScopeNotSafely: what = op_scope_not_safely(*this, self); break;
        case Op::ScopeFinally: what = op_scope_finally(*this, self); break;
        case Op::CoroutineFinally: what = op_coroutine_finally(*this, self); break;
        case Op::GroupCreate: what = op_group_create(*this, self); break;
        case Op::GroupAwait: what = op_group_await(*this, self); break;
        case Op::GroupWaitNext: what = op_group_wait_next(*this, self); break;
        case Op::GroupRelease: what = op_group_release(*this, self); break;
        case Op::PipeCreate: what = op_pipe_create(*this, self); break;
        case Op::PipeWrite: what = op_pipe_write(*this, self); break;
        case Op::PipeRead: what = op_pipe_read(*this, self); break;
        case Op::AwaitFd: what = op_await_fd(*this, self); break;
        case Op::OpRead: what = op_op_read(*this, self); break;
        case Op::OpWrite: what = op_op_write(*this, self); break;
        case Op::PipeClose: what = op_pipe_close(*this, self); break;
        case Op::Offload: what = op_offload(*this, self); break;
        case Op::TimerStart: what = op_timer_start(*this, self); break;
        case Op::TimerStop: what = op_timer_stop(*this, self); break;
        case Op::Context: what = op_context(*this, self); break;
        case Op::Introspect: what = op_introspect(*this, self); break;
        case Op::Shutdown: what = op_shutdown(*this, self); break;
        case Op::FailToGlobal: what = op_fail_to_global(*this, self); break;
        case Op::ChanCreate: what = op_chan_create(*this, self); break;
        case Op::ChanSend: what = op_chan_send(*this, self); break;
        case Op::ChanRecv: what = op_chan_recv(*this, self); break;
        case Op::ChanTry: what = op_chan_try(*this, self); break;
        case Op::ChanAsync: what = op_chan_async(*this, self); break;
        case Op::ChanAwaitOp: what = op_chan_await_op(*this, self); break;
        case Op::ChanOpDrop: what = op_chan_op_drop(*this, self); break;
        case Op::ChanClose: what = op_chan_close(*this, self); break;
        case Op::ChanRelease: what = op_chan_release(*this, self); break;
        case Op::PoolCreate: what = op_pool_create(*this, self); break;
        case Op::PoolAcquire: what = op_pool_acquire(*this, self); break;
        case Op::PoolGiveBack: what = op_pool_give_back(*this, self); break;
        case Op::PoolClose: what = op_pool_close(*this, self); break;
        case Op::PoolRelease: what = op_pool_release(*this, self); break;
        case Op::Count_: break;
    }
    char tail[48];
    std::snprintf(tail, sizeof(tail), "#%llu -> ", static_cast<unsigned long long>(my));
    trace(tail + what);
    check_world();
}

void Episode::bind_thread() {
    tl_episode = this;
    g_running.store(this);
}

void Episode::unbind_thread() {
    tl_episode = nullptr;
    g_running.store(nullptr);
}

Episode *running_episode() { return g_running.load(); }

Episode &this_episode() { return *tl_episode; }

void Episode::draw_episode_shape(Rng &rng) {
    for (std::size_t i = 0; i < sizeof(kWeights) / sizeof(kWeights[0]); ++i) scale_[i] = rng.below(5);
    // Every episode spawns and waits.
    scale_[0] = 1 + rng.below(4);
    scale_[3] = 1 + rng.below(4);
    if (rng.chance(20)) shutdown_at_ = 1 + rng.below(static_cast<std::uint32_t>(budget));
    if (rng.chance(10)) {
        fail_global_at_ = 1 + rng.below(static_cast<std::uint32_t>(budget));
        fail_global_again_ = rng.chance(50);
    }
}

}  // namespace tasync_random
