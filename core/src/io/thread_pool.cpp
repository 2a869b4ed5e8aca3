#include "tasync/core/thread_pool.hpp"

#include <algorithm>
#include <cerrno>

namespace tasync::detail {

ThreadPool::ThreadPool(unsigned threads, std::function<void(tasync_work_t *, int)> complete,
                       std::chrono::milliseconds idle_timeout)
    : max_threads_(threads == 0 ? 1 : threads), complete_(std::move(complete)), idle_timeout_(idle_timeout) {
    // A worker allocates nothing of its own: in a new thread malloc may
    // need an arena of its own, which an address-space limit can refuse.
    running_.reserve(max_threads_);
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    // No thread moves itself to exited_ once stop_ is set.
    for (pthread_t t : threads_) pthread_join(t, nullptr);
    for (pthread_t t : exited_) pthread_join(t, nullptr);
}

void ThreadPool::join_exited() {
    std::vector<pthread_t> done;
    {
        std::lock_guard<std::mutex> lock(mu_);
        done.swap(exited_);
    }
    // They have left worker() (or are about to): the joins are short.
    for (pthread_t t : done) pthread_join(t, nullptr);
}

int ThreadPool::submit(tasync_work_t *work) {
    join_exited();
    bool spawned = false;
    {
        std::lock_guard<std::mutex> lock(mu_);
        queue_.push_back(work);
        // Idle threads already notified count in idle_ until they wake:
        // a new thread starts for every queued job beyond them, so a burst
        // of jobs never waits behind jobs that only wait.
        if (queue_.size() > idle_ && threads_.size() < max_threads_) {
            pthread_t t;
            threads_.reserve(threads_.size() + 1);
            if (pthread_create(&t, nullptr, &ThreadPool::thread_main, this) == 0) {
                threads_.push_back(t);
                spawned = true;
            } else if (threads_.empty()) {
                // No thread could start (RLIMIT_NPROC, memory) and none
                // runs: the job fails instead of waiting forever. With a
                // thread running, it waits for that one.
                queue_.pop_back();
                return -EAGAIN;
            }
        }
    }
    if (!spawned) cv_.notify_one();
    return 0;
}

unsigned ThreadPool::threads() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<unsigned>(threads_.size());
}

bool ThreadPool::cancel(tasync_work_t *work) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = std::find(queue_.begin(), queue_.end(), work);
    if (it == queue_.end()) return false;
    queue_.erase(it);
    return true;
}

void *ThreadPool::thread_main(void *self) {
    static_cast<ThreadPool *>(self)->worker();
    return nullptr;
}

void ThreadPool::worker() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        ++idle_;
        bool woken = cv_.wait_for(lock, idle_timeout_, [this] { return stop_ || !queue_.empty(); });
        --idle_;
        if (queue_.empty()) {
            if (!woken && !stop_) {
                // Idle for idle_timeout: this thread leaves; the next burst
                // starts threads again. It is joined by the next submit or
                // the destructor.
                auto self = std::find_if(threads_.begin(), threads_.end(),
                                         [](pthread_t t) { return pthread_equal(t, pthread_self()) != 0; });
                exited_.push_back(*self);
                threads_.erase(self);
            }
            return;
        }
        tasync_work_t *work = queue_.front();
        queue_.pop_front();
        running_.push_back(work);
        lock.unlock();
        work->run(work);
        // Posted before it leaves running_: a child forked in between sees
        // it in both and keeps the posted completion (after_fork).
        complete_(work, 0);
        lock.lock();
        running_.erase(std::find(running_.begin(), running_.end(), work));
    }
}

std::vector<tasync_work_t *> ThreadPool::jobs_lost_in_fork() {
    std::vector<tasync_work_t *> lost(running_.begin(), running_.end());
    lost.insert(lost.end(), queue_.begin(), queue_.end());
    running_.clear();
    queue_.clear();
    return lost;
}

}  // namespace tasync::detail
