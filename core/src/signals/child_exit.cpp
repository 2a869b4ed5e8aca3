// tasync_await_child_exit: waiting for a child process to exit without
// reaping it, for hosts whose own code reaps its children (PHP's proc_close
// and pclose call waitpid themselves and keep their bookkeeping around it).
// Where the kernel has pidfd_open (Linux >= 5.3) the wait is a readiness
// watch of a pidfd of its own, which becomes readable when the child exits
// and never reaps; elsewhere waitid(WNOWAIT) is polled with a delay that
// grows from 1 ms to 50 ms. Either way the zombie stays for the caller.
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "tasync/core/child_exit.hpp"
#include "tasync/core/runtime.hpp"
#include "tasync/core/wait_util.hpp"

using namespace tasync::detail;

namespace {

std::atomic<bool> g_force_polling{false};

int open_pidfd(int pid) {
#ifdef SYS_pidfd_open
    int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    return fd >= 0 ? fd : -errno;
#else
    (void)pid;
    return -ENOSYS;
#endif
}

// 1 when pid has exited (a zombie), 0 while it runs, -ECHILD when it is not
// a child of this process (any more), another -errno on failure. Never reaps.
int exited(int pid) {
    siginfo_t si{};
    int rc;
    do {
        rc = waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOHANG | WNOWAIT);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) return -errno;
    return si.si_pid != 0 ? 1 : 0;
}

struct ExitWait : Wait {
    tasync_runtime *rt = nullptr;
    tasync_handle_t *handle = nullptr;
    int pidfd = -1;
    CancelLink cancel;
    bool counted = false;
};

void pidfd_ready(tasync_handle_t *, void *data, int, unsigned) {
    // Readable (the child exited) or an error the caller's check will see.
    auto *w = static_cast<ExitWait *>(data);
    w->rt->wake(w, 0);
}

void exit_cleanup(Wait *base) {
    auto *w = static_cast<ExitWait *>(base);
    if (w->handle != nullptr) {
        w->rt->reactor()->handle_close(w->handle);
        w->handle = nullptr;
    }
    if (w->pidfd >= 0) {
        close(w->pidfd);
        w->pidfd = -1;
    }
    w->cancel.detach();
    if (w->counted) {
        --w->rt->child_waiters;
        w->counted = false;
    }
}

// Waits on a pidfd: 1 when it was used (*rc holds the outcome), 0 when the
// caller must poll instead.
bool wait_pidfd(tasync_runtime *rt, int pid, tasync_awaitable *cancellation, void **out_error, int *rc) {
    const int pidfd = open_pidfd(pid);
    if (pidfd < 0) return false;
    // The child may have been reaped by someone else and its pid reused
    // before pidfd_open: the pidfd must name our child.
    int state = exited(pid);
    if (state != 0) {
        close(pidfd);
        *rc = state < 0 ? system_error(rt, state, "cannot wait for the child process", out_error) : 0;
        return true;
    }
    ExitWait w;
    w.kind = WaitKind::Child;
    w.pid = pid;
    w.rt = rt;
    w.pidfd = pidfd;
    w.cleanup = &exit_cleanup;
    if (!w.cancel.attach(&w, cancellation)) {
        exit_cleanup(&w);
        *rc = cancelled_at_once(rt, w, out_error);
        return true;
    }
    int orc = rt->reactor()->io_open(rt->loop, pidfd, &pidfd_ready, &w, &w.handle);
    if (orc == 0) orc = rt->reactor()->io_start(w.handle, TASYNC_IO_READABLE);
    if (orc != 0) {
        exit_cleanup(&w);
        return false;  // the backend cannot watch it: poll
    }
    ++rt->child_waiters;
    w.counted = true;
    rt->suspend_on(w);  // its cleanup closes the handle, then the pidfd
    if (w.code == 0) {
        state = exited(pid);
        if (state < 0) {
            w.code = state;
            if (w.error == nullptr)
                w.error = rt->make_error(TASYNC_ERROR_SYSTEM, state,
                                         std::string("cannot wait for the child process: ") + tasync_strerror(state));
        }
    }
    *rc = finish_wait(rt, w, nullptr, out_error);
    return true;
}

}  // namespace

namespace tasync::detail {

void child_exit_force_polling(bool on) { g_force_polling.store(on, std::memory_order_relaxed); }

}  // namespace tasync::detail

extern "C" TASYNC_API int tasync_await_child_exit(tasync_runtime_t *rt, int pid, tasync_awaitable_t *cancellation,
                                                  void **out_error) {
    if (out_error != nullptr) *out_error = nullptr;
    rt = running_runtime(rt);
    if (rt == nullptr || rt->current == nullptr) return not_in_coroutine(rt, out_error);
    if (pid <= 0) return system_error(rt, -EINVAL, "cannot wait for the child process", out_error);
    int state = exited(pid);
    if (state < 0) return system_error(rt, state, "cannot wait for the child process", out_error);
    if (state == 1) return 0;
    int rc = 0;
    if (!g_force_polling.load(std::memory_order_relaxed) && wait_pidfd(rt, pid, cancellation, out_error, &rc)) {
        return rc;
    }
    // No pidfd: poll, 1 ms at first, then less and less often.
    std::uint64_t step = 1000000;
    for (;;) {
        rc = tasync_delay(rt, step, cancellation, out_error);
        if (rc != 0) return rc;
        state = exited(pid);
        if (state < 0) return system_error(rt, state, "cannot wait for the child process", out_error);
        if (state == 1) return 0;
        if (step < 50000000) step *= 2;
    }
}
