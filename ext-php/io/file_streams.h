/*
 * io/file_streams.h - io/file_streams.c: plain files through the backend
 * or inline (what file_contents.c uses too), and the plain-file half of
 * stdio.c's ops.
 */
#ifndef ASYNC_IO_FILE_STREAMS_H
#define ASYNC_IO_FILE_STREAMS_H

#include "io/filesystems.h"
#include "io/wait.h"

/*
 * One read, write or fsync (TASYNC_OP_*) of a plain file through the
 * backend while the coroutine waits. Returns the bytes moved or -errno of
 * the system call; *status tells a wait that ended otherwise (cancelled,
 * aborted). Call only when async_io_coroutine() is not NULL.
 */
ssize_t async_io_file_op(int opcode, int fd, void *buf, size_t len, int64_t offset, uint32_t op_flags,
	async_io_status *status);

/* Before a piece of inline plain-file work (a read the page cache serves):
 * lets the other coroutines run once the caller has held the thread for
 * 2 ms of such work. ASYNC_IO_READY, or how the yield ended (C18). */
async_io_status async_io_inline_slice(void);

/* The filesystem class of a plain-file stream (fd), async.file_offload
 * applied (kept in the stream's flags). */
async_io_fs_class async_io_file_stream_class(php_stream *stream, int fd);
/* A read or write of a plain-file stream inside coroutine self (see
 * file_streams.c: inline where the page cache serves it, else through the
 * backend). */
ssize_t async_io_file_stream_read(php_stream *stream, int fd, char *buf, size_t count);
ssize_t async_io_file_stream_write(php_stream *stream, int fd, const char *buf, size_t count,
	tasync_coroutine_t *self);
/* A blocking flock(fd, value) inside a coroutine: 0, or -1 with errno set
 * as flock() sets it (EINTR when cancelled). */
int async_io_file_stream_lock(php_stream *stream, int fd, int value);
/* A file lock of this process was released: lock waiters try again. */
void async_io_file_stream_unlocked(void);
/* Inside copy() or stream_copy_to_stream() of the current coroutine:
 * stream must not be cast to an fd (PHP would copy it all in one
 * copy_file_range()). */
bool async_io_file_stream_copying(php_stream *stream);
/* MINIT (from stdio.c's): the hooks of copy() and stream_copy_to_stream(). */
void async_io_file_streams_startup(void);
/* RSHUTDOWN, before the runtime goes: lock waiters are gone with it. */
void async_io_file_streams_request_shutdown(void);

#endif /* ASYNC_IO_FILE_STREAMS_H */
