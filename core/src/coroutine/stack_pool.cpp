#include "tasync/core/stack_pool.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

namespace tasync::detail {

struct Slab {
    char *base = nullptr;
    std::size_t bytes = 0;
    std::size_t count = 0;          // stacks in the slab
    std::size_t handed = 0;         // stacks handed out at least once (bump index)
    std::size_t holders = 0;        // stacks live or cached (not trimmed)
    std::vector<std::uint32_t> cold; // trimmed stacks, guard still installed
    Slab *next = nullptr;           // all slabs
    Slab *prev = nullptr;
    Slab *cold_next = nullptr;      // slabs that have cold stacks
    Slab *cold_prev = nullptr;
    bool in_cold_list = false;
};

namespace {

std::size_t page_size() noexcept {
    static const std::size_t ps = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return ps;
}

std::size_t round_pages(std::size_t n) noexcept {
    const std::size_t ps = page_size();
    return (n + ps - 1) / ps * ps;
}

// 1: supported, 0: not supported, -1: not probed yet. Process-wide constant
// once probed (a property of the kernel), so sharing it between runtimes is
// not mutable shared state in any meaningful sense.
std::atomic<int> g_guard_install{-1};

bool install_guard(char *base, std::size_t len) noexcept {
    int mode = g_guard_install.load(std::memory_order_relaxed);
    if (mode != 0) {
        if (madvise(base, len, MADV_GUARD_INSTALL) == 0) {
            g_guard_install.store(1, std::memory_order_relaxed);
            return true;
        }
        if (errno != EINVAL && errno != ENOSYS) return false;
        g_guard_install.store(0, std::memory_order_relaxed);
    }
    return mprotect(base, len, PROT_NONE) == 0;
}

}  // namespace

bool StackPool::guard_install_supported() noexcept {
    if (g_guard_install.load(std::memory_order_relaxed) < 0) {
        const std::size_t ps = page_size();
        void *p = mmap(nullptr, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            g_guard_install.store(madvise(p, ps, MADV_GUARD_INSTALL) == 0 ? 1 : 0, std::memory_order_relaxed);
            munmap(p, 2 * ps);
        }
    }
    return g_guard_install.load(std::memory_order_relaxed) == 1;
}

StackPool::StackPool(std::size_t stack_size, std::size_t cache_min, std::size_t guard_size, std::size_t cache_max)
    : guard_size_(round_pages(guard_size < page_size() ? page_size() : guard_size)),
      cache_min_(cache_min),
      cache_max_(cache_max < cache_min ? cache_min : cache_max) {
    std::size_t usable = round_pages(stack_size < 16 * 1024 ? 16 * 1024 : stack_size);
    // Stacks sit side by side in a slab. With a power-of-two stride every
    // stack top would land in the same cache sets (a 1 MiB 8-way L2 has a
    // 128 KiB way), so only a handful of suspended coroutines could stay
    // cached; an odd number of pages per stride walks the tops through all
    // page colours instead. The extra page goes to the guard.
    if (((usable + guard_size_) / page_size()) % 2 == 0) guard_size_ += page_size();
    stack_size_ = usable + guard_size_;
    // Aim for slabs of about 8 MiB, between 1 and 64 stacks.
    std::size_t per = (8u << 20) / stack_size_;
    stacks_per_slab_ = per < 1 ? 1 : (per > 64 ? 64 : per);
    cache_.reserve(cache_min_);
    retired_.reserve(kRetiredBatch);
}

StackPool::~StackPool() {
    while (slabs_ != nullptr) drop_slab(slabs_);
}

bool StackPool::slab_fits_address_space(std::size_t bytes) const noexcept {
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return true;
    // The process's mapped size: the first field of /proc/self/statm, in pages.
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return true;
    char buf[64];
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0) return true;
    buf[n] = '\0';
    const unsigned long long mapped = std::strtoull(buf, nullptr, 10) * page_size();
    return mapped + bytes + as_reserve_ <= rl.rlim_cur;
}

Slab *StackPool::new_slab() noexcept {
    if (!slab_fits_address_space(stack_size_ * stacks_per_slab_)) {
        errno = ENOMEM;
        return nullptr;
    }
    auto *slab = new (std::nothrow) Slab;
    if (slab == nullptr) return nullptr;
    slab->count = stacks_per_slab_;
    slab->cold.reserve(slab->count);
    slab->bytes = stack_size_ * slab->count;
    void *p = mmap(nullptr, slab->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        delete slab;
        return nullptr;
    }
    slab->base = static_cast<char *>(p);
    slab->next = slabs_;
    if (slabs_ != nullptr) slabs_->prev = slab;
    slabs_ = slab;
    ++stats_.slabs;
    ++stats_.slab_maps;
    stats_.mapped_bytes += slab->bytes;
    return slab;
}

void StackPool::cold_unlink(Slab *slab) noexcept {
    if (!slab->in_cold_list) return;
    if (slab->cold_prev != nullptr) slab->cold_prev->cold_next = slab->cold_next;
    else cold_slabs_ = slab->cold_next;
    if (slab->cold_next != nullptr) slab->cold_next->cold_prev = slab->cold_prev;
    slab->cold_next = slab->cold_prev = nullptr;
    slab->in_cold_list = false;
}

void StackPool::drop_slab(Slab *slab) noexcept {
    cold_unlink(slab);
    if (slab->prev != nullptr) slab->prev->next = slab->next;
    else slabs_ = slab->next;
    if (slab->next != nullptr) slab->next->prev = slab->prev;
    if (current_ == slab) current_ = nullptr;
    munmap(slab->base, slab->bytes);
    --stats_.slabs;
    stats_.mapped_bytes -= slab->bytes;
    delete slab;
}

// A fresh stack, whose pages the kernel does not hold yet: fault its top
// page in with one system call. A coroutine touches at least
// that page at once, and a page fault costs an order of magnitude more than
// the same page populated in the kernel (measured on this project's VM:
// 18.7 us for a page faulted in by its first write, 2.8 + 10 us for a page
// populated and then written: the hypervisor still traps the first write).
//
// One stack at a time, with madvise: preparing a slab's fresh stacks in
// batches (process_madvise with MADV_GUARD_INSTALL and MADV_POPULATE_WRITE,
// two calls per 32 stacks) measured far slower on this project's VM. After
// each such call the next access to every page the process had touched
// before traps into the hypervisor again (33 us per page, plain C reading
// back 10 000 stack tops: 0.3 s instead of 1 ms; docs/benchmarks.md), so a
// burst of 10 000 coroutines paid it a second time when their timers fired.
void StackPool::populate_top(const Stack &s) noexcept {
#ifdef MADV_POPULATE_WRITE
    if (!populate_works_) return;
    if (madvise(s.top() - kPopulateBytes, kPopulateBytes, MADV_POPULATE_WRITE) == 0) {
        ++stats_.populates;
    } else if (errno == EINVAL) {
        populate_works_ = false;  // a kernel older than 5.14: faults it is
    }
#else
    (void)s;
#endif
}

Stack StackPool::allocate_slow() noexcept {
    if (!retired_.empty()) {
        // Still warm and still counted as held by its slab.
        Stack s = retired_.back();
        retired_.pop_back();
        ++stats_.live;
        return s;
    }
    if (cold_slabs_ != nullptr) {
        // Reuse a trimmed stack: its guard is still in place.
        Slab *slab = cold_slabs_;
        std::uint32_t index = slab->cold.back();
        slab->cold.pop_back();
        if (slab->cold.empty()) cold_unlink(slab);
        ++slab->holders;
        ++stats_.live;
        // Its pages are usually still there (MADV_FREE): no populate.
        return Stack{slab->base + index * stack_size_, stack_size_, slab};
    }
    if (current_ == nullptr || current_->handed == current_->count) {
        current_ = new_slab();
        if (current_ == nullptr) return {};
    }
    Slab *slab = current_;
    Stack s;
    s.base = slab->base + slab->handed * stack_size_;
    s.size = stack_size_;
    s.slab = slab;
    if (!install_guard(s.base, guard_size_)) {
        int saved = errno;
        // The slab stays; this slot is unusable but accounted for.
        ++slab->handed;
        errno = saved;
        return {};
    }
    ++stats_.guard_installs;
    ++slab->handed;
    ++slab->holders;
    ++stats_.live;
    populate_top(s);
    return s;
}

// Gives the pages of [from, to) back, guard regions inside included (a
// MADV_GUARD_INSTALL guard survives MADV_FREE and MADV_DONTNEED; an
// mprotect guard holds no pages), and files the range's stacks as cold.
void StackPool::trim_range(Slab *slab, char *from, char *to, std::size_t stacks) noexcept {
    // MADV_FREE lets the kernel take the pages when it needs memory, and
    // costs nothing if the stack is reused first (a page fault costs
    // ~10-18 us on a VM).
#ifdef MADV_FREE
    if (!free_works_ || madvise(from, static_cast<std::size_t>(to - from), MADV_FREE) != 0) {
        free_works_ = false;
        madvise(from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
    }
#else
    madvise(from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
#endif
    stats_.trims += stacks;
    for (char *p = from - guard_size_; p < to; p += stack_size_) {
        slab->cold.push_back(static_cast<std::uint32_t>((p - slab->base) / stack_size_));
    }
    if (!slab->in_cold_list) {
        slab->cold_next = cold_slabs_;
        if (cold_slabs_ != nullptr) cold_slabs_->cold_prev = slab;
        cold_slabs_ = slab;
        slab->in_cold_list = true;
    }
}

void StackPool::flush_retired_slow() noexcept {
    std::sort(retired_.begin(), retired_.end(), [](const Stack &a, const Stack &b) { return a.base < b.base; });
    std::size_t i = 0;
    while (i < retired_.size()) {
        // The retired stacks of one slab (adjacent after the sort: slabs
        // do not overlap).
        Slab *slab = retired_[i].slab;
        std::size_t j = i;
        while (j < retired_.size() && retired_[j].slab == slab) ++j;
        slab->holders -= j - i;
        if (slab->holders == 0 && slab->handed == slab->count) {
            stats_.trims += j - i;
            drop_slab(slab);
        } else {
            // One madvise per run of neighbouring stacks.
            std::size_t k = i;
            while (k < j) {
                std::size_t e = k + 1;
                while (e < j && retired_[e].base == retired_[e - 1].base + stack_size_) ++e;
                trim_range(slab, retired_[k].base + guard_size_, retired_[e - 1].top(), e - k);
                k = e;
            }
        }
        i = j;
    }
    retired_.clear();
}

void StackPool::decay_slow(std::uint64_t now_ns) noexcept {
    if (next_tick_ == 0) {
        // The first call starts the clock.
        next_tick_ = now_ns + kDecayTickNs;
        tick_low_ = cache_.size();
        return;
    }
    // Close the tick under way, and any whole tick that passed without a
    // call (the low seen since the last call stands for each).
    std::uint64_t ticks = (now_ns - next_tick_) / kDecayTickNs + 1;
    if (ticks > kDecayTicks) ticks = kDecayTicks;
    for (std::uint64_t i = 0; i < ticks; ++i) {
        lows_[low_pos_] = tick_low_;
        low_pos_ = (low_pos_ + 1) % kDecayTicks;
    }
    next_tick_ = now_ns + kDecayTickNs;
    std::size_t unused = lows_[0];
    for (std::size_t low : lows_) unused = low < unused ? low : unused;
    // Keep what the window used, and at least cache_min.
    const std::size_t above_min = cache_.size() > cache_min_ ? cache_.size() - cache_min_ : 0;
    const std::size_t excess = unused < above_min ? unused : above_min;
    if (excess > 0) {
        // The coldest stacks are at the bottom of the LIFO.
        retired_.insert(retired_.end(), cache_.begin(), cache_.begin() + static_cast<std::ptrdiff_t>(excess));
        cache_.erase(cache_.begin(), cache_.begin() + static_cast<std::ptrdiff_t>(excess));
        stats_.cached -= excess;
        stats_.decayed += excess;
        for (std::size_t &low : lows_) low -= excess;
        flush_retired_slow();
    }
    tick_low_ = cache_.size();
}

}  // namespace tasync::detail
