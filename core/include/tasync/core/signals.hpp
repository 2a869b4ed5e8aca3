// A runtime's side of signals and child exits (signals.cpp, children.cpp).
// The backends know nothing of either since ABI 1.2: the process-wide
// registry (signal_registry.hpp) counts deliveries in the runtime's slot
// and makes its wake fd readable; the runtime watches that fd with the
// backend's fd readiness, like any other, and hands the deliveries to the
// coroutines waiting for them. Child exits are pidfds watched the same way
// where the kernel has pidfd_open, else SIGCHLD through the registry
// followed by waitid for each pid the runtime watches (never waitpid(-1):
// PHP's proc_open and pcntl reap their own children).
#pragma once

#include <tasync/reactor.h>

#include "list.hpp"
#include "wait.hpp"

struct tasync_runtime;

namespace tasync::detail {

struct SignalSlot;

// The runtime's registration, created on first use (runtime.hpp holds it).
struct RuntimeSignals {
    SignalSlot *slot = nullptr;
    int read_fd = -1;
    tasync_handle_t *handle = nullptr;  // readiness of read_fd in the runtime's loop
    unsigned sigchld_users = 0;         // child watches on the SIGCHLD path
    bool sigchld_check = false;         // try them at the next delivery pass
};

// The waiters of one signal, and of one child process.
struct SignalWatch {
    tasync_runtime *rt = nullptr;
    int signum = 0;
    unsigned pending = 0;          // deliveries nobody waited for yet
    WaiterList waiters;
};

struct ChildWatch {
    tasync_runtime *rt = nullptr;
    int pid = 0;
    int pidfd = -1;                    // watched through handle, or
    bool sigchld = false;              // through SIGCHLD (children.cpp)
    tasync_handle_t *handle = nullptr;
    WaiterList waiters;
};

// Counted watch of signum by the runtime (opens the slot on first use).
// 0 or -errno (-EINVAL for a signal that cannot be watched).
int signals_watch(tasync_runtime *rt, int signum);
void signals_unwatch(tasync_runtime *rt, int signum);
// Makes the runtime run a delivery pass soon (children on the SIGCHLD path
// are tried then).
void signals_kick(tasync_runtime *rt);
// In a forked child, after the loop got kernel objects of its own: the wake
// fd and child watches are made the child's own.
void signals_after_fork(tasync_runtime *rt);
// Runtime teardown, before loop_destroy: every signal and child watch goes,
// the signals' previous dispositions come back.
void signals_teardown(tasync_runtime *rt);

// children.cpp
// The SIGCHLD path's pass: reaps the watched pids that have exited.
void children_check(tasync_runtime *rt);
void children_teardown(tasync_runtime *rt);
// After a fork: children on the SIGCHLD path are checked again (the parent's
// children are not the child's: they report exit_status -1).
void children_after_fork(tasync_runtime *rt);
// True when child exits are watched through pidfds (the kernel has
// pidfd_open and the SIGCHLD path is not forced).
bool children_use_pidfd();
// For tests only: forces the SIGCHLD path for watches opened from now on.
void children_force_sigchld(bool on);

}  // namespace tasync::detail
