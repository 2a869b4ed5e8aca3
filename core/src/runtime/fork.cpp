// fork() (docs/architecture.md): the atfork handlers and the child's first use
// of the reactor (a loop of its own, or a table that refuses everything).
#include "tasync/core/runtime.hpp"

#include <cerrno>
#include <ctime>
#include <mutex>

#include <pthread.h>

namespace tasync::detail {
namespace {

// What a child abandons: the parent's thread pool (its threads did not
// survive the fork) and, when the reactor could not be re-created, the
// parent's loop (destroying it would undo the parent's registrations).
// Kept reachable on purpose.
std::vector<void *> g_abandoned;

// Only the forking thread's runtime matters in the child; its pool lock and
// post lock are held across fork() so that the child sees every offloaded
// job either queued, running (lost) or posted, never half-posted.
void atfork_prepare() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr) return;
    if (rt->pool) rt->pool->mutex().lock();
    rt->post_mu.lock();
}
void atfork_parent() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr) return;
    rt->post_mu.unlock();
    if (rt->pool) rt->pool->mutex().unlock();
}
void atfork_child() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr) return;
    rt->post_mu.unlock();
    if (rt->pool) rt->pool->mutex().unlock();
    // A thread of the parent inside post() or unref() (a pool worker
    // posting its completion) does not exist here: nobody will leave.
    rt->xthread_calls.store(0, std::memory_order_relaxed);
    rt->forked = true;  // acted on at the first use (tasync_runtime::after_fork)
}

// The table a child's runtime uses when its reactor could not be
// re-created: the clock still works (timers still fire, sleeping in
// loop_run), every operation on the loop is refused.
int refuse_open_fd(tasync_loop_t *, int, tasync_io_cb, void *, tasync_handle_t **) { return -ENOTRECOVERABLE; }
int refuse_io(tasync_handle_t *, unsigned) { return -ENOTRECOVERABLE; }
int refuse_io_stop(tasync_handle_t *) { return 0; }
void refuse_close(tasync_handle_t *) {}
void refuse_destroy(tasync_loop_t *) {}
int refuse_wakeup(tasync_loop_t *) { return 0; }
int refuse_op(tasync_loop_t *, tasync_op_t *) { return -ENOTRECOVERABLE; }
int sleep_run(tasync_loop_t *, std::int64_t timeout_ns) {
    // Nothing can arrive: wait out the next timer (a bounded nap when there
    // is none, so that a runtime shutting down does not spin).
    std::int64_t ns = timeout_ns < 0 ? 10000000 : timeout_ns;
    if (ns > 0) {
        struct timespec ts {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
        nanosleep(&ts, nullptr);
    }
    return 0;
}

}  // namespace
}  // namespace tasync::detail

namespace tasync::detail {

void register_atfork_handlers() {
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); });
}

}  // namespace tasync::detail

using namespace tasync::detail;

void tasync_runtime::after_fork() {
    using namespace tasync::detail;
    forked = false;
    // The loop first: what follows may post, and post() wakes the loop.
    const int rc = ops->loop_fork != nullptr ? ops->loop_fork(loop) : -ENOTSUP;
    if (rc != 0) {
        fork_error = std::string("this process is a child made by fork() and the reactor backend '") + ops->name +
                     "' cannot continue in it: " +
                     (rc == -ENOTSUP ? std::string("the backend has no loop_fork (ABI 1.1)") : tasync_strerror(rc));
        g_abandoned.push_back(loop);
        refusing_ops = *ops;
        refusing_ops.loop_destroy = refuse_destroy;
        refusing_ops.loop_run = sleep_run;
        refusing_ops.loop_wakeup = refuse_wakeup;
        refusing_ops.io_open = refuse_open_fd;
        refusing_ops.io_start = refuse_io;
        refusing_ops.io_stop = refuse_io_stop;
        refusing_ops.handle_close = refuse_close;
        refusing_ops.op_submit = refuse_op;
        refusing_ops.op_cancel = refuse_op;
        refusing_ops.loop_fork = nullptr;
        ops = &refusing_ops;
        // Said and acted on by the run loop, whichever call found the fork.
        post([](void *p) {
            auto *rt = static_cast<tasync_runtime *>(p);
            rt->warn(rt->fork_error);
            if (rt->shutdown_phase != TASYNC_SHUTDOWN_NONE) return;
            void *e = rt->make_error(TASYNC_ERROR_SYSTEM, -ENOTRECOVERABLE, rt->fork_error);
            rt->start_shutdown(e, true);
            rt->release_error(e);
        }, this);
    }
    // The signals' wake fd and the child watches: made the child's own.
    signals_after_fork(this);
    // The deadline's timerfd is the parent's too (its timer is shared).
    deadline_fd_after_fork(this);
    // Offloaded jobs of the core's pool: its workers stayed in the parent.
    // A job whose completion was posted before the fork is delivered from
    // the post queue; the others finish as a cancelled job does.
    if (pool) {
        for (tasync_work_t *work : pool->jobs_lost_in_fork()) {
            bool posted_already = false;
            for (const Posted &p : posted) posted_already = posted_already || p.data == work;
            if (!posted_already) pool->complete(work, -ECANCELED);
        }
        g_abandoned.push_back(pool.release());
    }
    // The parent's watchdog thread does not exist here (C25).
    maybe_start_watchdog();
}
