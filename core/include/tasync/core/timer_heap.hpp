// A 4-ary min-heap of timers keyed by (deadline, sequence), the core's
// user-space timer queue (docs/architecture.md): one heap per runtime drives the
// backend's wait timeout, so re-arming a timer is a sift, not a system call.
//
// The heap keeps everything a sift touches in two dense arrays of its own:
// the nodes (deadline, sequence, slot) and a slot table (entry, position in
// the heap). An entry remembers only its slot, written when it is armed and
// when it is taken out; a node that moves writes its new position into the
// slot table, not into the entry. Entries usually live on the stacks of the
// coroutines that wait on them, one page per coroutine: a heap that wrote
// into its entries on every move (seven levels for 10 000 timers) would miss
// the cache and the TLB on each write (docs/benchmarks.md: the cold burst).
// Nothing allocates once the arrays have grown to the peak number of armed
// timers.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace tasync::detail {

struct TimerEntry {
    static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

    std::uint64_t deadline = 0;       // absolute, backend clock, ns
    std::uint32_t slot = npos;        // in the heap's slot table, npos when not armed
    bool ref = true;                  // keeps the runtime alive while armed
    void (*fire)(TimerEntry *) = nullptr;
    void *owner = nullptr;            // the object the entry is part of

    bool armed() const noexcept { return slot != npos; }
};

class TimerHeap {
public:
    bool empty() const noexcept { return nodes_.empty(); }
    std::size_t size() const noexcept { return nodes_.size(); }
    // Armed entries whose ref flag is set.
    std::size_t referenced() const noexcept { return referenced_; }

    TimerEntry *top() const noexcept { return nodes_.empty() ? nullptr : slots_[nodes_[0].slot].entry; }
    std::uint64_t top_deadline() const noexcept { return nodes_[0].deadline; }

    // Arms e at deadline, or moves it there if already armed. Among equal
    // deadlines, entries fire in the order they were (re)armed. Throws
    // std::bad_alloc (nothing changed) only when the arrays must grow.
    void arm(TimerEntry *e, std::uint64_t deadline);
    void disarm(TimerEntry *e) noexcept;
    // Changes the ref flag of an entry, armed or not.
    void set_ref(TimerEntry *e, bool ref) noexcept;
    // Removes and returns the top entry if its deadline is <= now and it was
    // armed before the sequence mark (entries re-armed by a callback during
    // the current round wait for the next round, so a zero timeout cannot
    // loop forever).
    TimerEntry *pop_expired(std::uint64_t now, std::uint64_t mark) noexcept;
    std::uint64_t mark() const noexcept { return seq_; }

private:
    struct Node {
        std::uint64_t deadline;
        std::uint64_t seq;
        std::uint32_t slot;
    };
    // An armed entry's slot: the entry and its node's position in nodes_.
    // A free slot holds the next free slot in pos (a list through the
    // table, last freed first).
    struct Slot {
        TimerEntry *entry;
        std::uint32_t pos;
    };

    // (deadline, seq) as one 128-bit key: a compare and a subtract with
    // borrow, no branch.
    static bool less(const Node &a, const Node &b) noexcept {
        using u128 = unsigned __int128;
        return ((static_cast<u128>(a.deadline) << 64) | a.seq) < ((static_cast<u128>(b.deadline) << 64) | b.seq);
    }
    void place(std::uint32_t i, const Node &n) noexcept {
        nodes_[i] = n;
        slots_[n.slot].pos = i;
    }
    void sift_up(std::uint32_t i, Node n) noexcept;
    void sift_down(std::uint32_t i, Node n) noexcept;
    void pop_top() noexcept;
    std::uint32_t min_child(std::uint32_t first, std::uint32_t size) const noexcept;
    void remove_at(std::uint32_t i) noexcept;
    // Takes e's slot out of the heap's books (e is no longer armed).
    void release(TimerEntry *e) noexcept;

    std::vector<Node> nodes_;
    std::vector<Slot> slots_;
    std::uint32_t free_ = TimerEntry::npos;  // first free slot
    std::uint64_t seq_ = 0;
    std::size_t referenced_ = 0;
};

}  // namespace tasync::detail
