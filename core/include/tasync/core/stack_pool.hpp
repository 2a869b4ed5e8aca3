// A pool of guard-paged coroutine stacks.
//
// Stacks are carved from slabs (one mmap holds several stacks) so that many
// thousands of coroutines do not exhaust the kernel's mapping limit. The
// lowest guard_size bytes of every stack are a guard region: with
// MADV_GUARD_INSTALL (Linux 6.13+, probed at run time) the guard costs no
// extra mapping; otherwise it is an mprotect(PROT_NONE) range.
//
// Released stacks go to a LIFO cache of at most cache_max entries, so steady
// state spawning makes no system call. Beyond the cache, a stack waits in a
// short list of retired stacks (still warm: allocate takes from it first);
// the list is returned to the kernel in one batch when it fills up or when
// the runtime is about to wait (flush_retired): stacks sorted by address,
// a slab whose stacks are all free unmapped with one munmap, runs of
// neighbouring stacks in a slab freed with one madvise(MADV_FREE). Memory
// after a burst of 100k coroutines goes back, in about one system call per
// slab instead of one or two per stack (each of which may cost a TLB
// shootdown).
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
};

class StackPool {
public:
    // stack_size and guard_size are rounded up to whole pages.
    StackPool(std::size_t stack_size, std::size_t cache_max, std::size_t guard_size = 64 * 1024);
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
    void populate_top(const Stack &s) noexcept;
    bool populate_works_ = true;
    bool free_works_ = true;
    Slab *new_slab() noexcept;
    void drop_slab(Slab *slab) noexcept;
    void trim_range(Slab *slab, char *from, char *to, std::size_t stacks) noexcept;
    void cold_unlink(Slab *slab) noexcept;

    std::size_t stack_size_;
    std::size_t guard_size_;
    std::size_t cache_max_;
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
