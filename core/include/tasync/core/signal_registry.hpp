// The process-wide signal registry (docs/architecture.md,
// rule C26). It owns, for the whole process:
//  - the dispositions of the signals some runtime watches: its handler is
//    installed when the first runtime starts watching a signal and the
//    previous disposition is restored, exactly, when the last one stops;
//  - the chaining to the handler that was installed before (PHP's pcntl
//    handler, for one): the previous handler *function* is called for every
//    delivery; a previous SIG_DFL or SIG_IGN is never "called";
//  - one slot per runtime that watches signals: a counter per signal and a
//    wake fd (an eventfd, or a pipe where there is none) that the runtime
//    watches with its backend's fd readiness.
// It never blocks a signal in any thread's mask, and sets no SIG_IGN: a
// caught signal is reset to SIG_DFL by exec, as in plain PHP.
//
// The runtime side (which coroutine waits for what) is in signals.cpp.
#pragma once

#include <signal.h>

namespace tasync::detail {

// A runtime's registration, owned by the registry (its memory is never
// freed: the handler may read it at any time, on any thread).
struct SignalSlot;

// True when signum may be watched: a catchable, non-fault signal that libc
// does not reserve (SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL and
// 32..SIGRTMIN-1 are refused).
bool signal_watchable(int signum);

// Claims a slot with a wake fd of its own for the calling thread's runtime.
// Returns the slot and its readable end in *read_fd, or nullptr with
// -errno in *err. Thread-safe.
SignalSlot *signal_slot_open(int *read_fd, int *err);

// Starts (or, counted, keeps) watching signum in the slot; installs the
// registry's handler when no slot watched it before. 0 or -errno.
int signal_slot_watch(SignalSlot *slot, int signum);

// Undoes one signal_slot_watch; the last watch of the process restores the
// previous disposition (unless someone installed another handler over the
// registry's since, which then stays).
void signal_slot_unwatch(SignalSlot *slot, int signum);

// Drains the wake fd and calls fn(ctx, signum, count) for every signal the
// slot watches that was delivered count > 0 times since the last call.
// On the slot's thread only.
void signal_slot_take(SignalSlot *slot, void (*fn)(void *ctx, int signum, unsigned count), void *ctx);

// After another handler was installed over the registry's for a signal
// some slot watches (PHP's pcntl_signal() does that), puts the registry's
// back in front: the one just installed becomes the previous disposition,
// chained to. 0 (also when the registry's handler is in place), -ENOENT
// when no slot watches signum, -EINVAL for a signal that cannot be
// watched, or -errno. Thread-safe.
int signal_reclaim(int signum);

// Makes the slot's next signal_slot_take run (the wake fd becomes readable)
// without a delivery. Async-signal-safe.
void signal_slot_kick(SignalSlot *slot);

// In a child made by fork(), on the thread that forked: the wake fd is the
// parent's too, so the slot gets a new one (returned in *read_fd; the old
// ends are closed). 0 or -errno.
int signal_slot_after_fork(SignalSlot *slot, int *read_fd);

// Unwatches everything the slot watches, waits for handlers that are using
// it, closes its fds and gives it back. The slot must not be used again.
void signal_slot_close(SignalSlot *slot);

}  // namespace tasync::detail
