// The stall watchdog (rule C25): see watchdog.hpp for the model and
// tasync_runtime_set_stall_timeout (runtime.h) for the contract.
//
// What the watchdog's thread may do while the runtime's thread is stalled:
// the stalled thread may hold any lock (malloc's, stdio's, the host's) and
// may resume at any moment. So the watchdog allocates nothing once started
// (the report is formatted into a buffer of the Watchdog object, with
// snprintf and integer formats only), takes no lock but its own, never
// calls into the runtime, reads the runtime's fields with relaxed atomic
// loads and uses what it read only if the progress counter did not move
// meanwhile, and writes the report with one write(2) on the output fd
// (stderr), which needs no lock and, for a line shorter than PIPE_BUF, is
// not interleaved with other writers of a pipe.
#include "tasync/core/watchdog.hpp"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "tasync/core/runtime.hpp"

namespace tasync::detail {

namespace {

constexpr std::uint64_t kMs = 1000000ull;
constexpr std::size_t kThreadStack = 128 * 1024;

std::uint64_t monotonic_ns() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

// A field the runtime's thread writes plainly, read from the watchdog's.
template <typename T>
T racy_load(const T &field) {
    return __atomic_load_n(&field, __ATOMIC_RELAXED);
}

// How often the watchdog looks: a quarter of the timeout (a stall is seen
// between 1 and 1.25 timeouts after it began), at least every second, at
// most every millisecond.
std::uint64_t sample_period(std::uint64_t timeout_ns) {
    std::uint64_t p = timeout_ns / 4;
    if (p > 1000 * kMs) p = 1000 * kMs;
    if (p < kMs) p = kMs;
    return p;
}

// "1.250 s" without floating point (snprintf of a double may allocate).
int format_seconds(char *buf, std::size_t len, std::uint64_t ns) {
    const std::uint64_t ms = ns / kMs;
    return std::snprintf(buf, len, "%llu.%03llu s", static_cast<unsigned long long>(ms / 1000),
                         static_cast<unsigned long long>(ms % 1000));
}

void write_all(int fd, const char *p, std::size_t n) {
    while (n > 0) {
        const ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;  // nowhere to say it: stderr is closed or broken
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

// Watchdogs a forked child abandoned (see Watchdog::abandon): a list through
// the objects themselves, so that abandoning allocates nothing.
std::atomic<Watchdog *> g_abandoned{nullptr};

void atfork_child() {
    tasync_runtime *rt = tls_runtime;
    if (rt == nullptr || rt->watchdog == nullptr) return;
    Watchdog::abandon(rt->watchdog.release());
    rt->watchdog_wanted = rt->stall_timeout_ns != 0;
}

}  // namespace

Watchdog::~Watchdog() {
    if (!running_) return;
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    pthread_join(thread_, nullptr);
}

void Watchdog::abandon(Watchdog *w) {
    if (w == nullptr) return;
    w->abandoned_next_ = g_abandoned.load(std::memory_order_relaxed);
    g_abandoned.store(w, std::memory_order_relaxed);
}

int Watchdog::start(std::uint64_t timeout_ns) {
    timeout_ns_ = timeout_ns;
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc != 0) return -rc;
    pthread_attr_setstacksize(&attr, kThreadStack);
    // Every signal is blocked in the thread (it inherits the mask at
    // creation): process-directed signals go to the threads that handle
    // them, never to the watchdog. Faults are synchronous and unaffected.
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    rc = pthread_create(&thread_, &attr, &Watchdog::thread_main, this);
    pthread_sigmask(SIG_SETMASK, &saved, nullptr);
    pthread_attr_destroy(&attr);
    if (rc != 0) return -rc;
    running_ = true;
    pthread_setname_np(thread_, "tasync-watchdog");
    return 0;
}

void Watchdog::set_timeout(std::uint64_t timeout_ns) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        timeout_ns_ = timeout_ns;
        ++generation_;
    }
    cv_.notify_all();
}

void *Watchdog::thread_main(void *self) {
    static_cast<Watchdog *>(self)->run();
    return nullptr;
}

void Watchdog::run() {
    std::unique_lock<std::mutex> lock(mu_);
    std::uint64_t seen = rt_->progress.load(std::memory_order_relaxed);
    std::uint64_t since = monotonic_ns();
    std::uint64_t generation = generation_;
    bool reported = false;
    while (!stop_) {
        const std::uint64_t timeout = timeout_ns_;
        if (timeout == 0) {
            cv_.wait(lock);
        } else {
            cv_.wait_for(lock, std::chrono::nanoseconds(sample_period(timeout)));
        }
        if (stop_) break;
        const std::uint64_t now = monotonic_ns();
        const std::uint64_t p = rt_->progress.load(std::memory_order_acquire);
        if (generation != generation_ || timeout_ns_ == 0 || p != seen ||
            rt_->polling.load(std::memory_order_acquire)) {
            // A new timeout, progress, or the thread waits in the reactor
            // (idle, not stalled): a stall, if one comes, starts now.
            generation = generation_;
            seen = p;
            since = now;
            reported = false;
            continue;
        }
        if (reported || now - since < timeout_ns_) continue;
        const std::uint64_t t = timeout_ns_;
        lock.unlock();
        reported = report(seen, now - since, t);
        lock.lock();
    }
}

bool Watchdog::report(std::uint64_t seen, std::uint64_t stalled_ns, std::uint64_t timeout_ns) {
    using Coroutine = tasync_coroutine;
    tasync_runtime *rt = rt_;
    Coroutine *co = racy_load(rt->current);
    Coroutine *main = racy_load(rt->main);
    // A stall starves someone: another coroutine (one that is not running
    // is unfinished, hence counted, or is the main one), or posted work. A
    // main coroutine that runs alone is a plain program doing its work.
    const bool others = co != main || racy_load(rt->active) != 0 || racy_load(rt->zombies) != 0 ||
                        rt->posted_pending.load(std::memory_order_relaxed) > 0 ||
                        rt->external_refs.load(std::memory_order_relaxed) > 0;
    if (!others) return false;

    tasync_stall_info_t info{};
    info.size = sizeof(info);
    info.co = co;
    if (co != nullptr) {
        // The coroutine cannot finish while the thread is stalled; if the
        // thread resumed meanwhile, what is read here is discarded below.
        info.is_main = racy_load(co->is_main) ? 1 : 0;
        info.co_data = racy_load(co->host_data);
        info.coroutine_id = racy_load(co->id);
        info.spawned_at.file = racy_load(co->spawn_loc.file);
        info.spawned_at.line = racy_load(co->spawn_loc.line);
    }
    info.stalled_ns = stalled_ns;
    info.timeout_ns = timeout_ns;

    std::size_t n = 0;
    if (rt->host.stall_report != nullptr) n = rt->host.stall_report(rt->host_data, &info, buf_, sizeof(buf_));
    if (n == 0 || n >= sizeof(buf_)) {
        char stalled[32], limit[32];
        format_seconds(stalled, sizeof(stalled), stalled_ns);
        format_seconds(limit, sizeof(limit), timeout_ns);
        char who[600];
        if (co == nullptr) {
            std::snprintf(who, sizeof(who), "a callback of the runtime (timer, reactor or posted)");
        } else if (info.is_main) {
            std::snprintf(who, sizeof(who), "the main coroutine");
        } else if (info.spawned_at.file != nullptr) {
            std::snprintf(who, sizeof(who), "coroutine %llu (spawned at %s:%u)",
                          static_cast<unsigned long long>(info.coroutine_id), info.spawned_at.file,
                          info.spawned_at.line);
        } else {
            std::snprintf(who, sizeof(who), "coroutine %llu", static_cast<unsigned long long>(info.coroutine_id));
        }
        const int w = std::snprintf(
            buf_, sizeof(buf_),
            "tasync: warning: %s has not come back to the scheduler for %s (stall timeout %s): it runs "
            "without switching coroutines or polling the reactor, and every other coroutine of its thread "
            "waits. Make its blocking calls through the runtime (tasync_await_fd, tasync_await_op, "
            "tasync_offload) or move the work to another thread or process; or raise the stall timeout "
            "(0 disables this warning).\n",
            who, stalled, limit);
        n = w < 0 ? 0 : (static_cast<std::size_t>(w) < sizeof(buf_) ? static_cast<std::size_t>(w) : sizeof(buf_) - 1);
    }
    // Trusted only if the thread is still where it was.
    if (rt->progress.load(std::memory_order_acquire) != seen || rt->polling.load(std::memory_order_acquire))
        return false;
    write_all(out_fd_.load(std::memory_order_relaxed), buf_, n);
    reports_.fetch_add(1, std::memory_order_release);
    return true;
}

}  // namespace tasync::detail

using namespace tasync::detail;

void tasync_runtime::start_watchdog() {
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, &atfork_child); });
    watchdog_wanted = false;
    if (stall_timeout_ns == 0) return;
    if (watchdog == nullptr) {
        watchdog.reset(new (std::nothrow) Watchdog(this));
        if (watchdog == nullptr) return;
    }
    const int rc = watchdog->start(stall_timeout_ns);
    if (rc != 0) {
        watchdog.reset();
        warn(std::string("the stall watchdog (C25) cannot start its thread: ") + tasync_strerror(rc));
    }
}

void tasync_runtime::stop_watchdog() {
    watchdog.reset();
    watchdog_wanted = false;
}

extern "C" {

TASYNC_API void tasync_runtime_set_stall_timeout(tasync_runtime_t *rt, uint64_t timeout_ns) {
    if (rt == nullptr) return;
    rt->stall_timeout_ns = timeout_ns;
    if (rt->watchdog != nullptr) {
        rt->watchdog->set_timeout(timeout_ns);
    } else {
        // Started at the next spawn (a runtime without coroutines has
        // nothing to starve).
        rt->watchdog_wanted = timeout_ns != 0;
    }
}

}  // extern "C"
