#include "tasync/core/timer_heap.hpp"

namespace tasync::detail {

void TimerHeap::sift_up(std::uint32_t i, Node n) noexcept {
    while (i > 0) {
        std::uint32_t parent = (i - 1) / 4;
        if (!less(n, nodes_[parent])) break;
        place(i, nodes_[parent]);
        i = parent;
    }
    place(i, n);
}

// The smallest child among first .. min(first + 4, size) - 1. (A
// tournament of four compares measured slower: the compiler turns this loop
// into conditional moves.)
std::uint32_t TimerHeap::min_child(std::uint32_t first, std::uint32_t size) const noexcept {
    std::uint32_t best = first;
    const std::uint32_t end = first + 4 < size ? first + 4 : size;
    for (std::uint32_t c = first + 1; c < end; ++c)
        if (less(nodes_[c], nodes_[best])) best = c;
    return best;
}

void TimerHeap::sift_down(std::uint32_t i, Node n) noexcept {
    const auto size = static_cast<std::uint32_t>(nodes_.size());
    for (;;) {
        std::uint32_t first = i * 4 + 1;
        if (first >= size) break;
        std::uint32_t best = min_child(first, size);
        if (!less(nodes_[best], n)) break;
        place(i, nodes_[best]);
        i = best;
    }
    place(i, n);
}

void TimerHeap::arm(TimerEntry *e, std::uint64_t deadline) {
    if (e->armed()) {
        e->deadline = deadline;
        Node n{deadline, seq_++, e->slot};
        std::uint32_t i = slots_[e->slot].pos;
        // The new key is larger than the old unless the deadline moved
        // earlier (the sequence number always grows).
        if (i > 0 && less(n, nodes_[(i - 1) / 4])) sift_up(i, n);
        else sift_down(i, n);
        return;
    }
    // Grow first (doubling, as push_back would): past this point nothing
    // throws, so a failed arm leaves the heap and the entry as they were.
    if (nodes_.size() == nodes_.capacity()) nodes_.reserve(nodes_.empty() ? 16 : nodes_.size() * 2);
    if (free_ == TimerEntry::npos && slots_.size() == slots_.capacity())
        slots_.reserve(slots_.empty() ? 16 : slots_.size() * 2);
    std::uint32_t s;
    if (free_ != TimerEntry::npos) {
        s = free_;
        free_ = slots_[s].pos;
        slots_[s].entry = e;
    } else {
        s = static_cast<std::uint32_t>(slots_.size());
        slots_.push_back(Slot{e, 0});
    }
    e->slot = s;
    e->deadline = deadline;
    if (e->ref) ++referenced_;
    Node n{deadline, seq_++, s};
    nodes_.push_back(n);
    sift_up(static_cast<std::uint32_t>(nodes_.size() - 1), n);
}

void TimerHeap::release(TimerEntry *e) noexcept {
    const std::uint32_t s = e->slot;
    slots_[s].entry = nullptr;
    slots_[s].pos = free_;
    free_ = s;
    e->slot = TimerEntry::npos;
    if (e->ref) --referenced_;
}

void TimerHeap::remove_at(std::uint32_t i) noexcept {
    release(slots_[nodes_[i].slot].entry);
    Node last = nodes_.back();
    nodes_.pop_back();
    if (i == nodes_.size()) return;
    if (i > 0 && less(last, nodes_[(i - 1) / 4])) sift_up(i, last);
    else sift_down(i, last);
}

void TimerHeap::disarm(TimerEntry *e) noexcept {
    if (e->armed()) remove_at(slots_[e->slot].pos);
}

void TimerHeap::set_ref(TimerEntry *e, bool ref) noexcept {
    if (e->ref == ref) return;
    if (e->armed()) referenced_ += ref ? 1 : static_cast<std::size_t>(-1);
    e->ref = ref;
}

// Removes the top with Floyd's bottom-up method: the hole at the root
// moves down along the smaller children to a leaf (one compare per level
// among siblings, none against the moved element), then the last element
// sifts up from there. The last element belongs near the bottom, so the
// climb is short: fewer compares than a plain sift-down.
void TimerHeap::pop_top() noexcept {
    release(slots_[nodes_[0].slot].entry);
    Node last = nodes_.back();
    nodes_.pop_back();
    const auto size = static_cast<std::uint32_t>(nodes_.size());
    if (size == 0) return;
    std::uint32_t hole = 0;
    for (;;) {
        std::uint32_t first = hole * 4 + 1;
        if (first >= size) break;
        std::uint32_t best = min_child(first, size);
        place(hole, nodes_[best]);
        hole = best;
    }
    sift_up(hole, last);
}

TimerEntry *TimerHeap::pop_expired(std::uint64_t now, std::uint64_t mark) noexcept {
    if (nodes_.empty() || nodes_[0].deadline > now || nodes_[0].seq >= mark) return nullptr;
    TimerEntry *e = slots_[nodes_[0].slot].entry;
    pop_top();
    return e;
}

}  // namespace tasync::detail
