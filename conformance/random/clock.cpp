// The tester's virtual clock: see clock.hpp.
#include "clock.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "episode.hpp"

namespace tasync_random {

namespace {

// Where every episode's virtual time begins (any fixed value; not 0, so
// that a deadline computed from it never looks unset).
constexpr std::uint64_t kEpoch = 1000000000000ull;  // 1000 s

// How long the clock waits for a pool thread to take a job or for a
// completion to be posted before it calls the episode failed: a pool
// thread that never comes is a hang of the runtime, not of the clock.
constexpr auto kRealPatience = std::chrono::seconds(30);

VirtualClock g_clock;

std::string directory_of(const std::string &path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

VirtualClock &the_clock() { return g_clock; }

std::string VirtualClock::load(const std::string &backend) {
    if (real_ != nullptr) return "";
    // The real backend, resolved as the core resolves it: a throwaway
    // runtime says which file it loaded.
    {
        tasync_runtime_options_t o{};
        o.size = sizeof(o);
        o.backend = backend.c_str();
        char err[512] = {0};
        o.errbuf = err;
        o.errbuf_size = sizeof(err);
        tasync_runtime_t *rt = nullptr;
        const int rc = tasync_runtime_create(&o, &rt);
        if (rc != 0) return std::string("cannot create a runtime on backend ") + backend + ": " + err;
        tasync_backend_info_t info{};
        info.size = sizeof(info);
        tasync_runtime_backend_info(rt, &info);
        real_path_ = info.path != nullptr ? info.path : "";
        tasync_runtime_destroy(rt);
    }
    void *dl = dlopen(real_path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (dl == nullptr) return "cannot load " + real_path_ + ": " + dlerror();
    void *sym = dlsym(dl, TASYNC_BACKEND_ENTRY_SYMBOL);
    if (sym == nullptr) return real_path_ + " has no " TASYNC_BACKEND_ENTRY_SYMBOL;
    tasync_backend_entry_fn entry;
    std::memcpy(&entry, &sym, sizeof(entry));
    real_ = entry(TASYNC_ABI_VERSION);
    if (real_ == nullptr) return real_path_ + " refused this ABI";

    // The clock backend: next to this program (both are built in
    // conformance/random).
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) return "cannot read /proc/self/exe";
    clock_path_ = directory_of(std::string(self, static_cast<std::size_t>(n))) + "/tasync-random-clock.so";
    void *cdl = dlopen(clock_path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (cdl == nullptr) return "cannot load " + clock_path_ + ": " + dlerror();
    void *tsym = dlsym(cdl, "tasync_random_clock_table");
    if (tsym == nullptr) return clock_path_ + " has no tasync_random_clock_table";
    tasync_backend_t *(*table_of)(void);
    std::memcpy(&table_of, &tsym, sizeof(table_of));
    tasync_backend_t *t = table_of();
    std::memset(t, 0, sizeof(*t));
    std::memcpy(t, real_, real_->size < sizeof(*t) ? real_->size : sizeof(*t));
    t->loop_now = &VirtualClock::table_now;
    t->loop_run = &VirtualClock::table_run;
    t->loop_wakeup = &VirtualClock::table_wakeup;
    // Waits end exactly at their deadline (they do not wait at all): the
    // core needs no timerfd of its own.
    t->capabilities |= TASYNC_CAP_PRECISE_TIMEOUT;
    return "";
}

void VirtualClock::start_episode(Episode *ep, unsigned pool_threads) {
    std::lock_guard<std::mutex> lock(mu_);
    ep_ = ep;
    loop_thread_ = std::this_thread::get_id();
    pool_threads_ = pool_threads != 0 ? pool_threads : 1;
    now_ = kEpoch;
    next_seq_ = 0;
    jobs_.clear();
    wakeups_ = 0;
    gate_waiting_ = false;
    ended_ = false;
}

void VirtualClock::end_episode() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        ended_ = true;
        jobs_.clear();
        ep_ = nullptr;
    }
    cv_.notify_all();
}

// ------------------------------------------------------------------ jobs

void VirtualClock::job_submitting(Job *j, tasync_coroutine_t *co, std::uint64_t duration) {
    std::lock_guard<std::mutex> lock(mu_);
    j->seq = ++next_seq_;
    j->end_at = now_ + duration;
    j->co = co;
    j->started = j->gate_open = j->finished = false;
    jobs_.push_back(j);
}

void VirtualClock::job_returned(Job *j) {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), j), jobs_.end());
}

void VirtualClock::job_run(Job *j) {
    std::unique_lock<std::mutex> lock(mu_);
    j->started = true;
    // No pool thread could start: the core runs the work on its own thread
    // (io.cpp), where nothing could open the gate.
    if (std::this_thread::get_id() == loop_thread_) j->gate_open = true;
    cv_.notify_all();
    cv_.wait(lock, [&] { return j->gate_open || ended_; });
}

void VirtualClock::job_finished(Job *j) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        j->finished = true;
    }
    cv_.notify_all();
}

void VirtualClock::coroutine_freed(tasync_coroutine_t *co) {
    std::lock_guard<std::mutex> lock(mu_);
    for (Job *j : jobs_) {
        if (j->co == co) j->co = nullptr;
    }
}

// Every job is taken that a free pool thread would take: each job not
// started is either no longer wanted (its coroutine was woken: the work
// was taken back, or the coroutine is gone) or waits behind as many
// running jobs as the pool has threads.
bool VirtualClock::settled_locked() {
    unsigned running = 0;
    bool waiting = false;
    for (Job *j : jobs_) {
        if (j->started) {
            if (!j->finished) ++running;
        } else if (j->co != nullptr && !(tasync_coroutine_flags(j->co) & TASYNC_CO_QUEUED)) {
            waiting = true;
        }
    }
    return !waiting || running >= pool_threads_;
}

void VirtualClock::barrier_slow() {
    std::unique_lock<std::mutex> lock(mu_);
    if (ended_) return;
    if (!cv_.wait_for(lock, kRealPatience, [&] { return settled_locked(); })) {
        lock.unlock();
        fail("offloaded work was not taken by a free pool thread within 30 s");
    }
}

Job *VirtualClock::next_gate_locked() {
    Job *best = nullptr;
    for (Job *j : jobs_) {
        if (!j->started || j->gate_open) continue;
        if (best == nullptr || j->end_at < best->end_at || (j->end_at == best->end_at && j->seq < best->seq)) best = j;
    }
    return best;
}

void VirtualClock::open_due_gates() {
    for (;;) {
        barrier();  // a thread a finished job freed takes the next queued one
        std::unique_lock<std::mutex> lock(mu_);
        Job *j = next_gate_locked();
        if (j == nullptr || j->end_at > now_ || ended_) return;
        // The runtime polls (loop_run with a timeout): its post of the
        // completion wakes the loop, which is how the clock knows it landed.
        const std::uint64_t want = wakeups_ + 1;
        gate_waiting_ = true;
        j->gate_open = true;
        cv_.notify_all();
        const bool ok = cv_.wait_for(lock, kRealPatience, [&] { return wakeups_ >= want || ended_; });
        gate_waiting_ = false;
        if (!ok) {
            lock.unlock();
            fail("offloaded work whose virtual time ended did not post its completion within 30 s");
            return;
        }
    }
}

void VirtualClock::fail(const std::string &what) {
    if (ep_ != nullptr) ep_->fail("virtual clock: " + what);
}

// ---------------------------------------------------------- the table

std::uint64_t VirtualClock::table_now(tasync_loop_t *) {
    g_clock.barrier();
    return g_clock.now_;
}

int VirtualClock::table_run(tasync_loop_t *loop, std::int64_t timeout_ns) {
    VirtualClock &c = g_clock;
    c.barrier();
    // What is ready now (fds the episode wrote or closed, io_uring
    // completions of operations on them).
    const int n = c.real_->loop_run(loop, 0);
    if (timeout_ns == 0 || n != 0) return n;
    // Nothing was: the runtime would sleep until its deadline, or until an
    // offloaded job ends, whichever comes first.
    {
        std::unique_lock<std::mutex> lock(c.mu_);
        Job *j = c.next_gate_locked();
        const std::uint64_t deadline = timeout_ns > 0 ? c.now_ + static_cast<std::uint64_t>(timeout_ns) : UINT64_MAX;
        if (j != nullptr && j->end_at <= deadline) {
            if (j->end_at > c.now_) c.now_ = j->end_at;
            lock.unlock();
            c.open_due_gates();
            return 0;
        }
        if (timeout_ns > 0) {
            c.now_ = deadline;
            return 0;
        }
    }
    // No deadline and no job: only something outside the episode could
    // end this wait (the tester has nothing such: the wall-clock cap then
    // reports the hang).
    return c.real_->loop_run(loop, -1);
}

int VirtualClock::table_wakeup(tasync_loop_t *loop) {
    VirtualClock &c = g_clock;
    bool forward;
    {
        std::lock_guard<std::mutex> lock(c.mu_);
        ++c.wakeups_;
        forward = !c.gate_waiting_;
    }
    c.cv_.notify_all();
    // While loop_run waits for a posted completion, the wakeup is the
    // clock's: the real loop never sees it (it would make a later poll
    // return at a moment decided by the thread that posted).
    return forward ? c.real_->loop_wakeup(loop) : 0;
}

}  // namespace tasync_random
