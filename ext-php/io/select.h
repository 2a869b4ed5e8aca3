/*
 * io/select.h - the wait on several fds of io/select.c, which
 * ext_sockets.c (socket_select) and mysqli.c (mysqli_poll) use too.
 */
#ifndef ASYNC_IO_SELECT_H
#define ASYNC_IO_SELECT_H

#include "io/wait.h"

/*
 * Waits until one of fds is ready for its events[i] (TASYNC_IO_* bits) or
 * the deadline (0 = none) passes. The fds are any PHP's code owns (each
 * is watched through a dup() closed afterwards, so that PHP may close and
 * reuse the numbers). ASYNC_IO_TIMEOUT when nothing is watchable and a
 * deadline is given; ASYNC_IO_UNSUPPORTED when the reactor refuses one.
 */
async_io_status async_io_wait_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline);

/*
 * As async_io_wait_fds(), but the fds are watched as they are: the
 * caller's own (dup()s of its own, say), which it forgets
 * (tasync_fd_forget) and closes afterwards. Forgetting one while the wait
 * runs ends the wait as ASYNC_IO_READY.
 */
async_io_status async_io_wait_own_fds(const int *fds, const unsigned *events, uint32_t count, uint64_t deadline);

#endif /* ASYNC_IO_SELECT_H */
