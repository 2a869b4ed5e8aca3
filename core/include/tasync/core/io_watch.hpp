// Fd readiness as the runtime tracks it (io.cpp, ops.cpp): one backend
// handle per watched fd shared by every coroutine that waits on it (G4), and
// what the core remembers about an fd for emulated operations.
#pragma once

#include <tasync/reactor.h>

#include "list.hpp"
#include "wait.hpp"

struct tasync_runtime;
namespace tasync::detail {

struct FdWaiter {
    Link link;
    Wait *wait = nullptr;
    unsigned events = 0;
};

struct FdWatch {
    tasync_runtime *rt = nullptr;
    int fd = -1;
    tasync_handle_t *handle = nullptr;
    unsigned interest = 0;
    List<FdWaiter, &FdWaiter::link> waiters;
};

// What the core remembers about an fd for emulated operations.
struct FdInfo {
    bool known = false;              // regular was determined
    bool regular = false;            // a file: operations go to the thread pool
    bool read_would_block = false;   // wait before reading: the last read hit EAGAIN or was short
    bool write_would_block = false;
};

}  // namespace tasync::detail
