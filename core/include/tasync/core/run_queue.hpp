// The scheduler's queues: the run queue of runnable coroutines and the
// callbacks posted from other threads (tasync_runtime_post).
#pragma once

#include <cstddef>
#include <vector>
namespace tasync::detail {

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
