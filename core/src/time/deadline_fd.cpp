// The wait for the next timer on a backend with a coarse timeout: a
// timerfd set to the deadline ends it (deadline_fd.hpp).
#include "tasync/core/deadline_fd.hpp"

#include <cerrno>

#include <unistd.h>

#include "tasync/core/runtime.hpp"

#ifdef __linux__
#include <sys/timerfd.h>
#endif

using namespace tasync::detail;

namespace {

void close_fd(tasync_runtime *rt, DeadlineFd *d) {
    if (d->handle != nullptr) rt->ops->handle_close(d->handle);
    if (d->fd >= 0) close(d->fd);
    d->handle = nullptr;
    d->fd = -1;
    d->armed = 0;
}

#ifdef __linux__
void deadline_passed(tasync_handle_t *, void *data, int status, unsigned) {
    auto *rt = static_cast<tasync_runtime *>(data);
    DeadlineFd *d = rt->deadline_fd;
    if (status < 0) {
        // The backend gave up the watch: the loop's own timeout it is.
        close_fd(rt, d);
        d->unusable = true;
        return;
    }
    std::uint64_t expirations;
    ssize_t n;
    do n = read(d->fd, &expirations, sizeof(expirations));
    while (n < 0 && errno == EINTR);
    d->armed = 0;
}

bool open_fd(tasync_runtime *rt, DeadlineFd *d) {
    d->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (d->fd < 0) return false;
    int rc = rt->ops->io_open(rt->loop, d->fd, &deadline_passed, rt, &d->handle);
    if (rc != 0) d->handle = nullptr;
    if (rc == 0) rc = rt->ops->io_start(d->handle, TASYNC_IO_READABLE);
    if (rc != 0) close_fd(rt, d);
    return rc == 0;
}
#endif

}  // namespace

namespace tasync::detail {

void deadline_fd_arm(tasync_runtime *rt, std::uint64_t deadline, std::int64_t timeout_ns) {
#ifdef __linux__
    if (rt->deadline_fd == nullptr) rt->deadline_fd = new DeadlineFd;
    DeadlineFd *d = rt->deadline_fd;
    if (d->unusable || d->armed == deadline) return;
    if (d->fd < 0 && !open_fd(rt, d)) {
        d->unusable = true;
        return;
    }
    // Relative to now: the runtime's clock need not be CLOCK_MONOTONIC. The
    // few microseconds since the deadline was computed make it end late,
    // never early.
    struct itimerspec its {};
    its.it_value.tv_sec = static_cast<time_t>(timeout_ns / 1000000000);
    its.it_value.tv_nsec = static_cast<long>(timeout_ns % 1000000000);
    if (timerfd_settime(d->fd, 0, &its, nullptr) == 0) d->armed = deadline;
#else
    (void)rt;
    (void)deadline;
    (void)timeout_ns;
#endif
}

void deadline_fd_after_fork(tasync_runtime *rt) {
    DeadlineFd *d = rt->deadline_fd;
    if (d == nullptr) return;
    close_fd(rt, d);
    d->unusable = false;
}

void deadline_fd_teardown(tasync_runtime *rt) {
    DeadlineFd *d = rt->deadline_fd;
    if (d == nullptr) return;
    close_fd(rt, d);
    delete d;
    rt->deadline_fd = nullptr;
}

}  // namespace tasync::detail
