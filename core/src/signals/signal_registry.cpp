// The process-wide signal registry: dispositions, chaining to the previous
// handler, and one slot (counters and a wake fd) per runtime that watches
// signals. See signal_registry.hpp for what it owns.
//
// The handler may run on any thread at any moment, including inside
// malloc or while the registry's mutex is held: it touches only lock-free
// atomics, the slots (whose memory is never freed), the saved previous
// dispositions and async-signal-safe system calls (write, syscall). Every
// other function runs under g_mu.
#include "tasync/core/signal_registry.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <mutex>

namespace tasync::detail {

namespace {

constexpr int kSlotsPerBlock = 16;
// Threads that may be inside the handler for one signal at once and still
// be protected from re-entering it through a chain (see enter_handler).
constexpr int kGuardEntries = 8;

}  // namespace

struct SignalSlot {
    // Read by the handler.
    std::atomic<int> write_fd{-1};    // -1: no runtime behind the slot
    int wake_size = 0;                // 8 for an eventfd, 1 for a pipe (set before write_fd)
    std::atomic<int> busy{0};         // handlers using write_fd right now
    std::atomic<bool> watched[NSIG]{};
    std::atomic<unsigned> pending[NSIG]{};
    // Under g_mu.
    bool claimed = false;
    int read_fd = -1;
    unsigned counts[NSIG]{};          // watches of each signal in this slot
    pthread_t owner{};                // the runtime's thread
};

namespace {

struct Block {
    SignalSlot slots[kSlotsPerBlock];
    std::atomic<Block *> next{nullptr};
};

std::mutex g_mu;
Block g_first;                          // further blocks are appended, never freed
unsigned g_users[NSIG];                 // slots watching each signal
struct sigaction g_old[NSIG];           // what the handler replaced, chained to
std::atomic<pid_t> g_inside[NSIG][kGuardEntries];

void on_signal(int signum, siginfo_t *info, void *uctx);

bool is_ours(const struct sigaction &sa) {
    return (sa.sa_flags & SA_SIGINFO) != 0 && sa.sa_sigaction == on_signal;
}

bool is_function(const struct sigaction &sa) {
    // sa_handler and sa_sigaction share storage: SIG_DFL and SIG_IGN are
    // dispositions, not something to call.
    return sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN;
}

// Re-entry guard: if a handler installed over ours chains to ours and we
// chain to it (it was installed before us the previous time), the chain
// would loop. Returns the entry to clear on leave, -1 when untracked (too
// many threads at once), or -2 when this thread is already inside.
int enter_handler(int signum, pid_t tid) {
    for (auto &e : g_inside[signum]) {
        if (e.load(std::memory_order_acquire) == tid) return -2;
    }
    for (int i = 0; i < kGuardEntries; i++) {
        pid_t expected = 0;
        if (g_inside[signum][i].compare_exchange_strong(expected, tid, std::memory_order_acq_rel)) return i;
    }
    return -1;
}

void wake(int fd, int size) {
    const std::uint64_t one = 1;
    // EAGAIN: the counter or the pipe is full, the reader is being woken
    // anyway.
    if (write(fd, &one, static_cast<std::size_t>(size)) < 0) {
    }
}

void on_signal(int signum, siginfo_t *info, void *uctx) {
    const int saved_errno = errno;
    const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
    const int entry = enter_handler(signum, tid);
    if (entry != -2) {
        for (Block *b = &g_first; b != nullptr; b = b->next.load(std::memory_order_acquire)) {
            for (SignalSlot &s : b->slots) {
                if (!s.watched[signum].load(std::memory_order_acquire)) continue;
                s.busy.fetch_add(1, std::memory_order_acq_rel);
                if (s.watched[signum].load(std::memory_order_acquire)) {
                    s.pending[signum].fetch_add(1, std::memory_order_acq_rel);
                    // -1 only while a forked child replaces the fd, which
                    // wakes the new one once it is in place.
                    const int fd = s.write_fd.load(std::memory_order_acquire);
                    if (fd >= 0) wake(fd, s.wake_size);
                }
                s.busy.fetch_sub(1, std::memory_order_release);
            }
        }
        const struct sigaction &old = g_old[signum];
        if (is_function(old) && !is_ours(old)) {
            if (old.sa_flags & SA_SIGINFO) old.sa_sigaction(signum, info, uctx);
            else old.sa_handler(signum);
        }
        if (entry >= 0) g_inside[signum][entry].store(0, std::memory_order_release);
    }
    errno = saved_errno;
}

// Puts the handler in place of the current disposition. Under g_mu.
int install(int signum) {
    struct sigaction cur;
    if (sigaction(signum, nullptr, &cur) != 0) return -errno;
    if (is_ours(cur)) return 0;  // put back by whoever had replaced it: g_old is still right
    g_old[signum] = cur;         // before the handler can run
    struct sigaction sa = {};
    sa.sa_sigaction = on_signal;
    // The chained handler runs with the mask and restart behaviour it was
    // installed with; for a default or ignored signal, system calls restart.
    sa.sa_mask = cur.sa_mask;
    sa.sa_flags = SA_SIGINFO |
                  (is_function(cur) ? cur.sa_flags & (SA_RESTART | SA_ONSTACK | SA_NODEFER | SA_NOCLDSTOP) : SA_RESTART);
    struct sigaction prev;
    if (sigaction(signum, &sa, &prev) != 0) return -errno;
    if (!is_ours(prev)) g_old[signum] = prev;  // changed between the two calls
    return 0;
}

// Gives the signal back to what it had before. Under g_mu.
void uninstall(int signum) {
    struct sigaction cur;
    // Someone installed a handler over ours since: theirs stays.
    if (sigaction(signum, nullptr, &cur) == 0 && is_ours(cur)) sigaction(signum, &g_old[signum], nullptr);
}

void drop_watch(SignalSlot *slot, int signum) {
    if (slot->counts[signum] == 0 || --slot->counts[signum] > 0) return;
    slot->watched[signum].store(false, std::memory_order_release);
    if (--g_users[signum] == 0) uninstall(signum);
}

int make_wake_fds(int *read_fd, int *write_fd, int *size) {
    const int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (efd >= 0) {
        *read_fd = *write_fd = efd;
        *size = 8;
        return 0;
    }
    int p[2];
    if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) return -errno;
    *read_fd = p[0];
    *write_fd = p[1];
    *size = 1;
    return 0;
}

void close_wake_fds(int read_fd, int write_fd) {
    if (read_fd >= 0) close(read_fd);
    if (write_fd >= 0 && write_fd != read_fd) close(write_fd);
}

// fork(): the registry is consistent in the child because g_mu is held
// across the fork. Only the forking thread lives on in the child: the slots
// of other threads' runtimes stop watching (their dispositions go back when
// nobody else watches) and their fds, which the parent shares, are closed
// (close and sigaction are async-signal-safe). Their memory stays claimed:
// those runtimes are never used again.
void atfork_prepare() { g_mu.lock(); }
void atfork_parent() { g_mu.unlock(); }
void atfork_child() {
    const pthread_t self = pthread_self();
    for (Block *b = &g_first; b != nullptr; b = b->next.load(std::memory_order_acquire)) {
        for (SignalSlot &s : b->slots) {
            if (!s.claimed || s.write_fd.load() < 0 || pthread_equal(s.owner, self)) continue;
            for (int signum = 1; signum < NSIG; signum++) {
                if (s.counts[signum] == 0) continue;
                s.counts[signum] = 1;
                drop_watch(&s, signum);
            }
            const int w = s.write_fd.exchange(-1);
            close_wake_fds(s.read_fd, w);
            s.read_fd = -1;
        }
    }
    for (auto &entries : g_inside) {
        for (auto &e : entries) e.store(0);
    }
    g_mu.unlock();
}

}  // namespace

bool signal_watchable(int signum) {
    if (signum <= 0 || signum >= NSIG) return false;
    switch (signum) {
        case SIGKILL:
        case SIGSTOP:
        // A handler that returns cannot serve a fault (it faults again);
        // the guard-page handler owns SIGSEGV.
        case SIGSEGV:
        case SIGBUS:
        case SIGFPE:
        case SIGILL:
            return false;
        default:
            return !(signum >= 32 && signum < SIGRTMIN);  // libc's own (NPTL)
    }
}

SignalSlot *signal_slot_open(int *read_fd, int *err) {
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); });
    int r, w, size;
    *err = make_wake_fds(&r, &w, &size);
    if (*err != 0) return nullptr;
    std::lock_guard<std::mutex> lock(g_mu);
    SignalSlot *slot = nullptr;
    Block *last = nullptr;
    for (Block *b = &g_first; b != nullptr && slot == nullptr; b = b->next.load(std::memory_order_acquire)) {
        last = b;
        for (SignalSlot &s : b->slots) {
            if (!s.claimed) {
                slot = &s;
                break;
            }
        }
    }
    if (slot == nullptr) {
        auto *b = new (std::nothrow) Block();
        if (b == nullptr) {
            close_wake_fds(r, w);
            *err = -ENOMEM;
            return nullptr;
        }
        last->next.store(b, std::memory_order_release);  // published fully initialised
        slot = &b->slots[0];
    }
    slot->claimed = true;
    slot->owner = pthread_self();
    slot->read_fd = r;
    slot->wake_size = size;
    for (int signum = 0; signum < NSIG; signum++) {
        slot->counts[signum] = 0;
        slot->pending[signum].store(0);
    }
    slot->write_fd.store(w, std::memory_order_release);
    *read_fd = r;
    return slot;
}

int signal_slot_watch(SignalSlot *slot, int signum) {
    if (!signal_watchable(signum)) return -EINVAL;
    std::lock_guard<std::mutex> lock(g_mu);
    if (slot->counts[signum]++ > 0) return 0;
    if (g_users[signum]++ == 0) {
        const int rc = install(signum);
        if (rc != 0) {
            g_users[signum]--;
            slot->counts[signum]--;
            return rc;
        }
    }
    slot->pending[signum].store(0, std::memory_order_relaxed);
    slot->watched[signum].store(true, std::memory_order_release);
    return 0;
}

void signal_slot_unwatch(SignalSlot *slot, int signum) {
    if (signum <= 0 || signum >= NSIG) return;
    std::lock_guard<std::mutex> lock(g_mu);
    drop_watch(slot, signum);
}

void signal_slot_take(SignalSlot *slot, void (*fn)(void *ctx, int signum, unsigned count), void *ctx) {
    // Drained first: a delivery that lands after the drain leaves the fd
    // readable, so it is taken now or at the next readiness, never lost.
    char buf[64];
    while (read(slot->read_fd, buf, sizeof(buf)) > 0) {
    }
    for (int signum = 1; signum < NSIG; signum++) {
        if (!slot->watched[signum].load(std::memory_order_acquire)) continue;
        const unsigned n = slot->pending[signum].exchange(0, std::memory_order_acq_rel);
        if (n > 0) fn(ctx, signum, n);
    }
}

int signal_reclaim(int signum) {
    if (!signal_watchable(signum)) return -EINVAL;
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_users[signum] == 0) return -ENOENT;
    // install() keeps g_old when the handler is still the registry's, so a
    // second call cannot make the registry chain to itself.
    return install(signum);
}

void signal_slot_kick(SignalSlot *slot) {
    const int fd = slot->write_fd.load(std::memory_order_acquire);
    if (fd >= 0) wake(fd, slot->wake_size);
}

int signal_slot_after_fork(SignalSlot *slot, int *read_fd) {
    int r, w, size;
    const int rc = make_wake_fds(&r, &w, &size);
    if (rc != 0) return rc;
    std::lock_guard<std::mutex> lock(g_mu);
    const int old_read = slot->read_fd;
    const int old_write = slot->write_fd.exchange(-1, std::memory_order_acq_rel);
    while (slot->busy.load(std::memory_order_acquire) != 0) sched_yield();
    slot->wake_size = size;
    slot->read_fd = r;
    slot->write_fd.store(w, std::memory_order_release);
    close_wake_fds(old_read, old_write);
    // Deliveries counted between the fork and now wrote to the old fd.
    wake(w, size);
    *read_fd = r;
    return 0;
}

void signal_slot_close(SignalSlot *slot) {
    std::lock_guard<std::mutex> lock(g_mu);
    for (int signum = 1; signum < NSIG; signum++) {
        if (slot->counts[signum] == 0) continue;
        slot->counts[signum] = 1;
        drop_watch(slot, signum);
    }
    const int w = slot->write_fd.exchange(-1, std::memory_order_acq_rel);
    // A handler on another thread that saw the fd may still write to it.
    while (slot->busy.load(std::memory_order_acquire) != 0) sched_yield();
    close_wake_fds(slot->read_fd, w);
    slot->read_fd = -1;
    slot->claimed = false;
}

}  // namespace tasync::detail
