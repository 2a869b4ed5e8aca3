// The stall watchdog (rule C25; tasync_runtime_set_stall_timeout in
// runtime.h): one thread per runtime that samples the runtime's progress
// counter and warns, once per stall, when the runtime's thread has not come
// back to the scheduler for the timeout while something waits for it.
//
// The runtime's side is a counter (tasync_runtime::note_progress) bumped
// where the thread comes back to the scheduler (pick_next) or polls the
// reactor, and the existing `polling` flag, set while the thread waits in
// the reactor: nothing else on the hot path. Everything else the watchdog
// reads of the runtime (current, main, active...) it reads racily, with
// atomic loads, and trusts only if the counter did not move meanwhile.
#pragma once

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

struct tasync_runtime;

namespace tasync::detail {

class Watchdog {
public:
    explicit Watchdog(tasync_runtime *rt) : rt_(rt) {}
    // Stops the thread and waits for it (a report being written finishes).
    ~Watchdog();
    Watchdog(const Watchdog &) = delete;
    Watchdog &operator=(const Watchdog &) = delete;

    // Starts the thread. 0 or -errno. On the runtime's thread.
    int start(std::uint64_t timeout_ns);
    // A new timeout (0: sample nothing until another one is set); the
    // current stall, if any, is measured afresh.
    void set_timeout(std::uint64_t timeout_ns);

    // For tests: where reports go (default 2), and how many were written.
    void set_output_fd(int fd) { out_fd_.store(fd, std::memory_order_relaxed); }
    std::uint64_t reports() const { return reports_.load(std::memory_order_acquire); }

    // In a child made by fork(): the thread does not exist there and the
    // mutex and condition variable may hold the parent's waiters, so the
    // object must never be used (nor destroyed) again. It is kept reachable
    // in a list of its own. Async-signal-safe.
    static void abandon(Watchdog *w);

private:
    static void *thread_main(void *self);
    void run();
    // Writes the report of a stall that began when progress was at `seen`.
    // Returns true when written, false when there was nothing to report
    // (nobody waits) or the runtime came back meanwhile.
    bool report(std::uint64_t seen, std::uint64_t stalled_ns, std::uint64_t timeout_ns);

    tasync_runtime *rt_;
    pthread_t thread_{};
    bool running_ = false;
    std::mutex mu_;
    std::condition_variable cv_;
    bool stop_ = false;                 // under mu_
    std::uint64_t timeout_ns_ = 0;      // under mu_
    std::uint64_t generation_ = 0;      // under mu_: bumped by set_timeout
    std::atomic<int> out_fd_{2};
    std::atomic<std::uint64_t> reports_{0};
    Watchdog *abandoned_next_ = nullptr;
    // The report is formatted here: the watchdog's thread allocates nothing.
    char buf_[4096];
};

}  // namespace tasync::detail
