// The wait for the next timer, to the microsecond, on every backend
// (deadline_fd.cpp). A backend without TASYNC_CAP_PRECISE_TIMEOUT ends
// loop_run's wait on a millisecond boundary (epoll_wait's timeout; libuv's
// clock counts whole milliseconds, libev waits at least one): a delay of
// 300 us took 1 ms there, and one of 1 ms that started between two loop
// iterations took up to 2. For such a backend the runtime sets a timerfd
// of its own to the deadline and watches it with the backend's fd
// readiness, like its other fds: the wait ends when the deadline passes.
#pragma once

#include <tasync/reactor.h>

#include <cstdint>

struct tasync_runtime;

namespace tasync::detail {

struct DeadlineFd {
    int fd = -1;
    tasync_handle_t *handle = nullptr;  // readiness of fd in the runtime's loop
    std::uint64_t armed = 0;            // the deadline fd is set for (runtime clock); 0: none
    bool unusable = false;              // no timerfd here: the backend's timeout alone
};

// Waits of this length or more are left to the backend's timeout: its
// millisecond is 1% of them at most, and a keep-alive server's 60 s read
// timeouts (the earliest of which changes with every request) cost no
// system call.
constexpr std::int64_t kDeadlineFdBelowNs = 100'000'000;

// Before a wait of timeout_ns (> 0) that ends at deadline: sets the fd when
// the backend needs it. Costs nothing when the fd is set for that deadline
// already.
void deadline_fd_arm(tasync_runtime *rt, std::uint64_t deadline, std::int64_t timeout_ns);
// In a forked child: the fd's timer is shared with the parent; the child
// makes its own at its next wait.
void deadline_fd_after_fork(tasync_runtime *rt);
void deadline_fd_teardown(tasync_runtime *rt);

}  // namespace tasync::detail
