// Child exits, the runtime's side: tasync_await_child. Each watched pid is
// a pidfd watched with the backend's fd readiness where the kernel has
// pidfd_open (Linux >= 5.3), else SIGCHLD through the signal registry
// followed by waitid for each pid the runtime watches. Only watched pids are
// reaped, one by one (never waitpid(-1): PHP's proc_open and pcntl reap
// their own children); a child someone else reaped first reports
// exit_status -1.
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <vector>

#include "tasync/core/runtime.hpp"
#include "tasync/core/signals.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

std::atomic<bool> g_force_sigchld{false};

int pidfd_open_(int pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

bool kernel_has_pidfd() {
    static const bool has = [] {
        const int fd = pidfd_open_(getpid());
        if (fd < 0) return false;
        close(fd);
        return true;
    }();
    return has;
}

// Stops watching and frees the watch (its waiters are gone or woken).
void forget(ChildWatch *watch) {
    tasync_runtime *rt = watch->rt;
    rt->child_watches.erase(watch->pid);
    if (watch->handle != nullptr) rt->reactor()->handle_close(watch->handle);
    if (watch->pidfd >= 0) close(watch->pidfd);
    if (watch->sigchld) {
        --rt->signals->sigchld_users;
        signals_unwatch(rt, SIGCHLD);
    }
    delete watch;
}

void report(ChildWatch *watch, int exit_status, int term_signal) {
    tasync_runtime *rt = watch->rt;
    while (Waiter *w = watch->waiters.pop_front()) {
        w->wait->exit_status = exit_status;
        w->wait->term_signal = term_signal;
        rt->wake(w->wait, 0);
    }
    forget(watch);
}

// Reaps the child if it has exited and reports it (watch is freed then).
bool try_reap(ChildWatch *watch) {
    siginfo_t si{};
    int rc;
    do {
        rc = waitid(P_PID, static_cast<id_t>(watch->pid), &si, WEXITED | WNOHANG);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        if (errno != ECHILD) return false;
        report(watch, -1, 0);  // reaped by someone else (pcntl_waitpid, proc_close)
        return true;
    }
    if (si.si_pid == 0) return false;  // still running
    if (si.si_code == CLD_EXITED) report(watch, si.si_status, 0);
    else report(watch, 0, si.si_status);
    return true;
}

void pidfd_ready(tasync_handle_t *handle, void *data, int status, unsigned) {
    auto *watch = static_cast<ChildWatch *>(data);
    if (try_reap(watch)) return;
    // A spurious report, or the backend stopped the handle after an error.
    if (status < 0) watch->rt->reactor()->io_start(handle, TASYNC_IO_READABLE);
}

int open_watch(tasync_runtime *rt, int pid, ChildWatch **out) {
    // Refuse what is not a child of this process, without reaping it.
    siginfo_t si{};
    if (waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOHANG | WNOWAIT) != 0) return -errno;
    auto *watch = new ChildWatch;
    watch->rt = rt;
    watch->pid = pid;
    if (children_use_pidfd()) watch->pidfd = pidfd_open_(pid);
    int rc;
    if (watch->pidfd >= 0) {
        // Readable once the child has exited, at once if it already has.
        rc = rt->reactor()->io_open(rt->loop, watch->pidfd, &pidfd_ready, watch, &watch->handle);
        if (rc == 0) rc = rt->reactor()->io_start(watch->handle, TASYNC_IO_READABLE);
    } else {
        rc = signals_watch(rt, SIGCHLD);
        if (rc == 0) {
            watch->sigchld = true;
            ++rt->signals->sigchld_users;
            // It may have exited before the handler was in place.
            rt->signals->sigchld_check = true;
            signals_kick(rt);
        }
    }
    if (rc != 0) {
        if (watch->handle != nullptr) rt->reactor()->handle_close(watch->handle);
        if (watch->pidfd >= 0) close(watch->pidfd);
        delete watch;
        return rc;
    }
    rt->child_watches.emplace(pid, watch);
    *out = watch;
    return 0;
}

struct ChildWait : Wait {
    tasync_runtime *rt = nullptr;
    ChildWatch *watch = nullptr;
    Waiter node;
    CancelLink cancel;
    bool counted = false;
};

void child_cleanup(Wait *w) {
    auto *cw = static_cast<ChildWait *>(w);
    if (cw->node.link.linked()) {
        cw->watch->waiters.remove(&cw->node);
        // Nobody waits any more: stop watching (the child stays unreaped
        // for a later waiter or the host).
        if (cw->watch->waiters.empty()) forget(cw->watch);
    }
    cw->watch = nullptr;
    cw->cancel.detach();
    if (cw->counted) {
        --cw->rt->child_waiters;
        cw->counted = false;
    }
}

}  // namespace

namespace tasync::detail {

bool children_use_pidfd() { return !g_force_sigchld.load(std::memory_order_relaxed) && kernel_has_pidfd(); }

void children_force_sigchld(bool on) { g_force_sigchld.store(on, std::memory_order_relaxed); }

void children_check(tasync_runtime *rt) {
    // Reporting frees watches: walk a copy of the pids.
    std::vector<int> pids;
    for (const auto &kv : rt->child_watches) {
        if (kv.second->sigchld) pids.push_back(kv.first);
    }
    for (int pid : pids) {
        auto it = rt->child_watches.find(pid);
        if (it != rt->child_watches.end()) try_reap(it->second);
    }
}

void children_after_fork(tasync_runtime *rt) {
    if (rt->signals != nullptr && rt->signals->sigchld_users > 0) {
        // The parent's children are not this process's: they report -1.
        rt->signals->sigchld_check = true;
        signals_kick(rt);
    }
}

void children_teardown(tasync_runtime *rt) {
    while (!rt->child_watches.empty()) forget(rt->child_watches.begin()->second);
}

}  // namespace tasync::detail

extern "C" {

TASYNC_API int tasync_await_child(tasync_runtime_t *rt, int pid, tasync_awaitable_t *cancellation, int *exit_status,
                                  int *term_signal, void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (pid <= 0) return system_error(rt, -EINVAL, "cannot wait for the child process", out_error);
    ChildWatch *watch = nullptr;
    auto it = rt->child_watches.find(pid);
    if (it == rt->child_watches.end()) {
        const int rc = open_watch(rt, pid, &watch);
        if (rc != 0) return system_error(rt, rc, "cannot wait for the child process", out_error);
    } else {
        watch = it->second;
    }
    ChildWait w;
    w.kind = WaitKind::Child;
    w.pid = pid;
    w.rt = rt;
    w.watch = watch;
    w.cleanup = &child_cleanup;
    if (!w.cancel.attach(&w, cancellation)) {
        if (watch->waiters.empty()) forget(watch);
        return cancelled_at_once(rt, w, out_error);
    }
    w.node.wait = &w;
    watch->waiters.push_back(&w.node);
    ++rt->child_waiters;
    w.counted = true;
    rt->suspend_on(w);
    if (w.code == 0) {
        if (exit_status != nullptr) *exit_status = w.exit_status;
        if (term_signal != nullptr) *term_signal = w.term_signal;
    }
    return finish_wait(rt, w, nullptr, out_error);
}

}  // extern "C"
