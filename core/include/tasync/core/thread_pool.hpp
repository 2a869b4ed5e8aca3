// The core's own pool of worker threads, used to offload blocking work when
// the backend has no TASYNC_CAP_OFFLOAD. It is a blocking pool (as Tokio's
// or Go's): its jobs mostly wait (for a resolver, a stalled filesystem, a
// lock), so a job that finds no idle thread gets a new one, up to a bound,
// and a thread idle for idle_timeout exits. Completions are handed back to
// the runtime through a callback that the runtime makes thread-safe (its
// post queue plus the backend wakeup).
#pragma once

#include <tasync/reactor.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace tasync::detail {

class ThreadPool {
public:
    // How long a thread waits for a job before it exits (Tokio's default).
    static constexpr std::chrono::milliseconds kIdleTimeout{10000};

    // complete(work, status) is called from a worker thread after run().
    // threads: the most threads at once (0 counts as 1).
    ThreadPool(unsigned threads, std::function<void(tasync_work_t *, int)> complete,
               std::chrono::milliseconds idle_timeout = kIdleTimeout);
    ~ThreadPool();
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    // 0, or -EAGAIN when no thread runs and none could be started (the
    // job is not queued then).
    int submit(tasync_work_t *work);
    // Removes work if it has not started: returns true, and the caller
    // completes it with -ECANCELED itself. False if it is running or done.
    bool cancel(tasync_work_t *work);

    // In a child process after fork(): the workers did not survive it.
    // Returns every job queued or running (a running one may have posted
    // its completion just before the fork), without taking the lock. The
    // pool must then be abandoned, not destroyed (its thread ids name
    // threads of the parent).
    std::vector<tasync_work_t *> jobs_lost_in_fork();
    // Hands work back as the workers do (the completion callback).
    void complete(tasync_work_t *work, int status) { complete_(work, status); }
    // Held across fork() by the prepare handler (runtime/fork.cpp).
    std::mutex &mutex() { return mu_; }
    // Threads alive now (running a job or idle). Thread-safe.
    unsigned threads();

private:
    static void *thread_main(void *self);
    void worker();
    void join_exited();

    unsigned max_threads_;
    std::function<void(tasync_work_t *, int)> complete_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<tasync_work_t *> queue_;
    std::vector<tasync_work_t *> running_;
    std::chrono::milliseconds idle_timeout_;
    std::vector<pthread_t> threads_;
    // Threads that exited after idle_timeout, joined by the next submit or
    // the destructor (a thread cannot join itself).
    std::vector<pthread_t> exited_;
    // Threads waiting for a job; a queued job beyond them starts a thread.
    unsigned idle_ = 0;
    bool stop_ = false;
};

}  // namespace tasync::detail
