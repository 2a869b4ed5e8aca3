#include "tasync/core/thread_pool.hpp"

#include <algorithm>
#include <cerrno>

namespace tasync::detail {

ThreadPool::ThreadPool(unsigned threads, std::function<void(tasync_work_t *, int)> complete)
    : max_threads_(threads == 0 ? 1 : threads), complete_(std::move(complete)) {}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto &t : threads_) t.join();
}

void ThreadPool::submit(tasync_work_t *work) {
    bool spawn = false;
    {
        std::lock_guard<std::mutex> lock(mu_);
        queue_.push_back(work);
        spawn = idle_ == 0 && threads_.size() < max_threads_;
        if (spawn) threads_.emplace_back([this] { worker(); });
    }
    if (!spawn) cv_.notify_one();
}

bool ThreadPool::cancel(tasync_work_t *work) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = std::find(queue_.begin(), queue_.end(), work);
    if (it == queue_.end()) return false;
    queue_.erase(it);
    return true;
}

void ThreadPool::worker() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        ++idle_;
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        --idle_;
        if (queue_.empty()) return;  // stopping
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
