// The tester's virtual clock: what makes an episode a function of its seed.
//
// The runtime reads time only through its backend's loop_now and sleeps
// only in loop_run. The tester therefore runs every episode on a backend of
// its own (clock_backend.c, tasync-random-clock.so): the real backend's
// table (uv, uring or ev, loaded by the tester) with three entries replaced.
//
//  - loop_now returns virtual time. It starts at the same value in every
//    episode and moves only in loop_run; delays, timeouts, callback timers,
//    dispose timers (S7), the zombie timeout (S9), the channel and pool
//    timers (T1, T3) and the stack pool's decay all read it.
//  - loop_run(timeout) polls the real loop without blocking. When nothing
//    was ready and the runtime would sleep, virtual time jumps to the
//    runtime's deadline (or to the end of an offloaded job, below) instead,
//    and loop_run returns as if it had waited. The table says
//    TASYNC_CAP_PRECISE_TIMEOUT, so the core arms no timerfd of its own
//    (core/src/time/deadline_fd.cpp) for the coarse backends.
//  - loop_wakeup counts the wakeups that offloaded work posts (below).
//
// Running costs virtual time too: each switch to a coroutine advances the
// clock by the episode's switch cost (0, or a few microseconds), so that
// timers also come due while coroutines are runnable and fire at the end
// of a pass over the run queue, not only when the runtime would sleep.
//
// What the real backend still decides is deterministic for the tester:
// the pipes and socket pairs an episode waits on are written and closed by
// the episode itself, on the runtime's thread, so their readiness at each
// poll (and io_uring's completions of operations on them) follows from
// what the episode did before it.
//
// Real concurrency is left at one place: offloaded work, which runs on the
// core's thread pool. The tester makes its order deterministic so:
//  - each job has a virtual duration. The tester's function marks the job
//    started when a pool thread takes it, then blocks on a gate until
//    virtual time reaches the job's end: the clock opens gates in loop_run,
//    one at a time in the order of their end (then of submission), and
//    waits for each job's completion to be posted (the loop_wakeup the
//    runtime's post makes while it polls) before it opens the next. So the
//    runtime's thread sees each completion at a poll decided by virtual
//    time, in an order decided by it;
//  - before the runtime reads the clock, polls, or switches to a coroutine
//    (the host's coroutine_enter: Episode::on_enter), the clock waits until
//    every submitted job that a free pool thread would take has been taken
//    (barrier()). Whether a cancellation finds a job still queued (taken
//    back, ECANCELED) or running (its result is kept) then depends on the
//    pool's size and the jobs' virtual durations only: a job is queued only
//    while the pool's threads (the episode draws how many) all run jobs
//    that virtual time has not ended.
#pragma once

#include <tasync/tasync.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tasync_random {

class Episode;

// An offloaded job as the clock sees it (part of OffloadRec, model.hpp).
struct Job {
    std::uint64_t seq = 0;      // submission order
    std::uint64_t end_at = 0;   // virtual time at which its work ends
    tasync_coroutine_t *co = nullptr;  // the coroutine waiting for it; NULL once freed
    // Guarded by the clock's mutex.
    bool started = false;    // a pool thread took it
    bool gate_open = false;  // virtual time reached end_at: it may finish
    bool finished = false;   // its work returned
};

class VirtualClock {
public:
    // Once per process: loads the real backend the core would load for
    // `backend` (a name, resolved in $TASYNC_BACKEND_DIR, or a path) and the
    // clock backend next to this program, and fills the clock backend's
    // table. Returns "" or the reason it could not.
    std::string load(const std::string &backend);
    // The file to pass as tasync_runtime_options_t.backend.
    const std::string &path() const { return clock_path_; }
    const std::string &real_path() const { return real_path_; }

    // The episode whose runtime runs on the clock backend from now on;
    // pool_threads: the runtime's thread_pool_size (nonzero).
    void start_episode(Episode *ep, unsigned pool_threads);
    // After the runtime was destroyed: nothing waits on a gate any more.
    void end_episode();

    std::uint64_t now() const { return now_; }
    // Running costs virtual time: a coroutine switch (Episode::on_enter).
    void advance(std::uint64_t ns) { now_ += ns; }

    // The runtime's thread, around tasync_offload.
    void job_submitting(Job *j, tasync_coroutine_t *co, std::uint64_t duration);
    void job_returned(Job *j);
    // The offloaded function, on a pool thread (or on the runtime's, when
    // no pool thread could start): marks the job started and waits until
    // virtual time ends it.
    void job_run(Job *j);
    // ... and after its work, before the function returns.
    void job_finished(Job *j);
    // The host's coroutine_free: a job's coroutine is gone (the runtime's
    // destruction frees coroutines still waiting for taken-back work).
    void coroutine_freed(tasync_coroutine_t *co);

    // Waits until every job that a free pool thread would take has been
    // taken (see above). Cheap when no job is in flight.
    void barrier() {
        if (!jobs_.empty()) barrier_slow();
    }

private:
    static std::uint64_t table_now(tasync_loop_t *loop);
    static int table_run(tasync_loop_t *loop, std::int64_t timeout_ns);
    static int table_wakeup(tasync_loop_t *loop);

    void barrier_slow();
    bool settled_locked();
    // The started job whose gate opens first (NULL: none).
    Job *next_gate_locked();
    // Opens the gates of the started jobs that virtual time has ended, one
    // at a time, each after the completion of the one before was posted.
    void open_due_gates();
    void fail(const std::string &what);

    const tasync_backend_t *real_ = nullptr;
    std::string real_path_;
    std::string clock_path_;
    Episode *ep_ = nullptr;
    std::thread::id loop_thread_;
    unsigned pool_threads_ = 1;
    std::uint64_t now_ = 0;
    std::uint64_t next_seq_ = 0;

    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<Job *> jobs_;       // submitted, tasync_offload not returned yet
    std::uint64_t wakeups_ = 0;     // loop_wakeup calls (posted completions)
    bool gate_waiting_ = false;     // loop_run waits for a posted completion
    bool ended_ = true;             // no episode: gates stay open
};

// The process's clock (one episode runs at a time).
VirtualClock &the_clock();

}  // namespace tasync_random
