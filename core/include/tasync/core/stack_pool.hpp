// A pool of guard-paged coroutine stacks.
//
// Stacks are carved from slabs (one mmap holds several stacks) so that many
// thousands of coroutines do not exhaust the kernel's mapping limit. The
// lowest guard_size bytes of every stack are a guard region: with
// MADV_GUARD_INSTALL (Linux 6.13+, probed at run time) the guard costs no
// extra mapping; otherwise it is an mprotect(PROT_NONE) range.
//
// Released stacks go to a LIFO cache, so steady-state spawning makes no
// system call, and a stack's pages stay warm: on a VM the first touch of a
// page costs 10-30 us, far more than running a short coroutine. The cache
// adapts to the load (docs/benchmarks.md: warm bursts):
//
//  - it always keeps cache_min stacks (async.stack_cache);
//  - beyond that it keeps every released stack, up to cache_max, so that a
//    burst of coroutines that comes back finds its stacks warm;
//  - decay(now), called when the runtime is about to wait, returns what a
//    whole decay window (kDecayTicks ticks of one second: 10 s) left unused
//    (the lowest number of cached stacks seen in each tick, minimum over the
//    window), coldest first, keeping at least cache_min. A process that stays idle after
//    a burst gives the burst's stacks back 10 to 11 s later; one that sees
//    bursts more often than that keeps them.
//
// Stacks beyond cache_max, and those decay() gives back, wait in a short
// list of retired stacks (still warm: allocate takes from it first); the
// list is returned to the kernel in one batch when it fills up, when decay
// runs, or when the runtime is about to wait (flush_retired): stacks sorted
// by address, a slab whose stacks are all free unmapped with one munmap,
// runs of neighbouring stacks in a slab freed with one madvise(MADV_FREE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tasync::detail {

struct Slab;

struct Stack {
    char *base = nullptr;  // lowest address, start of the guard region
    std::size_t size = 0;  // total size including the guard
    Slab *slab = nullptr;

    char *top() const noexcept { return base + size; }
    explicit operator bool() const noexcept { return base != nullptr; }
};

struct StackPoolStats {
    std::size_t live = 0;          // handed out
    std::size_t cached = 0;        // free, ready for reuse
    std::size_t slabs = 0;         // mappings
    std::size_t mapped_bytes = 0;  // bytes currently mapped
    std::uint64_t slab_maps = 0;   // mmap calls so far
    std::uint64_t guard_installs = 0;
    std::uint64_t trims = 0;       // stacks whose pages were returned
    std::uint64_t populates = 0;   // stack tops faulted in ahead of use
    std::uint64_t decayed = 0;     // cached stacks given back by decay()
};

class StackPool {
public:
    // stack_size and guard_size are rounded up to whole pages. cache_min:
    // free stacks always kept; cache_max: free stacks kept at most (raised
    // to cache_min if lower).
    StackPool(std::size_t stack_size, std::size_t cache_min, std::size_t guard_size = 64 * 1024,
              std::size_t cache_max = kDefaultCacheMax);
    ~StackPool();
    StackPool(const StackPool &) = delete;
    StackPool &operator=(const StackPool &) = delete;

    // Returns a stack, or an empty Stack when memory is exhausted (errno set).
    // A stack from the cache (no system call), else from a slab. Empty on
    // failure (errno says why).
    Stack allocate() noexcept {
        if (!cache_.empty()) {
            Stack s = cache_.back();
            cache_.pop_back();
            if (cache_.size() < tick_low_) tick_low_ = cache_.size();
            --stats_.cached;
            ++stats_.live;
            return s;
        }
        return allocate_slow();
    }
    // Back to the cache, or to the retired list when the cache is full.
    void release(Stack s) noexcept {
        if (!s) return;
        --stats_.live;
        if (cache_.size() < cache_max_) {
            cache_.push_back(s);
            ++stats_.cached;
            return;
        }
        retired_.push_back(s);
        if (retired_.size() >= kRetiredBatch) flush_retired();
    }
    // Returns the retired stacks' memory to the kernel now (inline when
    // there is none: the run loop asks before every wait).
    void flush_retired() noexcept {
        if (!retired_.empty()) flush_retired_slow();
    }
    std::size_t retired() const noexcept { return retired_.size(); }

    // Under an address-space limit (RLIMIT_AS, `ulimit -v`), a new slab is
    // refused when mapping it would leave less than `bytes` of the limit,
    // so that the host's own allocator (PHP's heap) still finds room and a
    // coroutine fails with an error instead of the process dying. Nothing
    // is checked when the limit is infinite.
    void set_address_space_reserve(std::size_t bytes) noexcept { as_reserve_ = bytes; }

    // Gives back the cached stacks that a whole decay window left unused
    // (see above); now_ns: a monotonic clock. Cheap when no tick has
    // passed (the runtime calls it before every wait).
    void decay(std::uint64_t now_ns) noexcept {
        if (now_ns >= next_tick_) decay_slow(now_ns);
    }
    // When decay() has work to do next (a monotonic time), or 0 when the
    // cache holds no more than cache_min stacks: a runtime that would wait
    // without a timeout waits until then, so that an idle process returns
    // a burst's memory.
    std::uint64_t decay_deadline() const noexcept {
        if (cache_.size() <= cache_min_) return 0;
        return next_tick_ != 0 ? next_tick_ : 1;  // 1: the clock is not started, at once
    }
    std::size_t cached() const noexcept { return cache_.size(); }

    static constexpr std::size_t kDefaultCacheMax = 65536;
    static constexpr unsigned kDecayTicks = 10;
    static constexpr std::uint64_t kDecayTickNs = 1000000000;

    std::size_t stack_size() const noexcept { return stack_size_; }
    std::size_t guard_size() const noexcept { return guard_size_; }
    std::size_t usable_size() const noexcept { return stack_size_ - guard_size_; }
    const StackPoolStats &stats() const noexcept { return stats_; }

    // Whether guard regions use MADV_GUARD_INSTALL (no extra mappings).
    static bool guard_install_supported() noexcept;

private:
    static constexpr std::size_t kPopulateBytes = 4096;
    static constexpr std::size_t kRetiredBatch = 256;
    Stack allocate_slow() noexcept;
    void decay_slow(std::uint64_t now_ns) noexcept;
    void populate_top(const Stack &s) noexcept;
    bool populate_works_ = true;
    bool free_works_ = true;
    Slab *new_slab() noexcept;
    bool slab_fits_address_space(std::size_t bytes) const noexcept;
    std::size_t as_reserve_ = 64u << 20;
    void drop_slab(Slab *slab) noexcept;
    void trim_range(Slab *slab, char *from, char *to, std::size_t stacks) noexcept;
    void cold_unlink(Slab *slab) noexcept;

    std::size_t stack_size_;
    std::size_t guard_size_;
    std::size_t cache_min_;
    std::size_t cache_max_;
    // Decay: the lowest cache size of the tick under way, and of the
    // kDecayTicks ticks before (a ring; 0 until a tick has been seen).
    std::size_t tick_low_ = 0;
    std::size_t lows_[kDecayTicks] = {};
    unsigned low_pos_ = 0;
    std::uint64_t next_tick_ = 0;
    std::size_t stacks_per_slab_;
    std::vector<Stack> cache_;   // LIFO of free stacks with warm pages
    void flush_retired_slow() noexcept;
    std::vector<Stack> retired_; // beyond the cache, waiting for flush_retired
    Slab *current_ = nullptr;    // slab still handing out fresh stacks
    Slab *slabs_ = nullptr;      // every slab, for teardown
    Slab *cold_slabs_ = nullptr; // slabs holding trimmed, reusable stacks
    StackPoolStats stats_;
};

}  // namespace tasync::detail
