// Fd readiness as the runtime tracks it (io.cpp, ops.cpp): one backend
// handle per watched fd shared by every coroutine that waits on it (G4), and
// what the core remembers about an fd for emulated operations.
#pragma once

#include <tasync/reactor.h>

#include <cstdint>

#include "list.hpp"
#include "timer_heap.hpp"
#include "wait.hpp"

struct tasync_runtime;
namespace tasync::detail {

struct FdWaiter {
    Link link;
    Wait *wait = nullptr;
    unsigned events = 0;
    std::uint64_t deadline = 0;  // the wait's own (tasync_await_fd_until), 0: none
};

struct FdWatch {
    tasync_runtime *rt = nullptr;
    int fd = -1;
    tasync_handle_t *handle = nullptr;
    unsigned interest = 0;
    List<FdWaiter, &FdWaiter::link> waiters;
    // The deadlines of its waiters (ABI 1.3): one entry of the runtime's
    // timer heap per fd, armed at or before the earliest of them. A wait
    // that ends otherwise leaves it armed, so that a connection read again
    // and again under the same timeout (each read's deadline later than the
    // last) moves nothing in the heap; when it fires early it times out the
    // waiters whose deadline passed and moves to the next one. It keeps the
    // runtime alive only while a waiter has a deadline.
    TimerEntry deadline_timer;
    std::uint32_t deadline_waiters = 0;
};

// What the core remembers about an fd for emulated operations.
struct FdInfo {
    bool known = false;              // regular was determined
    bool regular = false;            // a file: operations go to the thread pool
    bool read_would_block = false;   // wait before reading: the last read hit EAGAIN or was short
    bool write_would_block = false;
};

}  // namespace tasync::detail
