/*
 * io/stdio.h - stdio.c, PHP's stdio ops patched (pipes, FIFOs, terminals,
 * the ops table): what file_streams.c (plain files and locks through those
 * ops) uses of it, and what processes.c asks of a stdio stream.
 */
#ifndef ASYNC_IO_STDIO_H
#define ASYNC_IO_STDIO_H

#include "io/wait.h"

/*
 * Bits of php_stream.flags that PHP 8.2 leaves unused (it defines 0x1 to
 * 0x400 and 0x80000000), kept by stdio.c and file_streams.c for stdio streams.
 */
#define IO_STDIO_KNOWN      0x40000000u /* the kind below was determined */
#define IO_STDIO_POLL       0x20000000u /* pipe, FIFO, socket, character device */
#define IO_STDIO_FILE       0x10000000u /* regular file */
#define IO_STDIO_REMOTE     0x08000000u /* file on a remote filesystem (io/filesystems.c) */
#define IO_STDIO_MEMORY     0x04000000u /* file on a memory filesystem */
#define IO_STDIO_NO_NOWAIT  0x02000000u /* the filesystem refuses RWF_NOWAIT */
#define IO_STDIO_LOCKED     0x00800000u /* holds a flock() */
#define IO_STDIO_STATE      0x00400000u /* has an io_stdio_state */
#define IO_STDIO_CANCELLED  0x00200000u /* an operation was cancelled */
#define IO_STDIO_CLASSED    0x00100000u /* REMOTE/MEMORY were determined */

/* PHP's own stdio ops, as they were before stdio.c patched them. */
extern php_stream_ops async_io_stdio_orig_ops;

/* PHP's notice for a failed read or write of count bytes (errno err). */
void async_io_stdio_failed(php_stream *stream, const char *what, size_t count, int err);
/* A wait that did not end with readiness, as a read or write sees it: -1
 * (after the notice of a cancelled call, C18). */
ssize_t async_io_stdio_wait_failed(php_stream *stream, const char *what, size_t count, async_io_status st);
/* Waits while another coroutine holds the stream's write turn; ends the
 * caller's turn. */
async_io_status async_io_stdio_write_turn_wait(php_stream *stream, tasync_coroutine_t *self, uint64_t deadline);
void async_io_stdio_write_turn_end(php_stream *stream, tasync_coroutine_t *self);

/* --------------------------------------------- for the other families */

/* Makes closing stream wait for child pid and reap it with reap
 * (processes.c's popen and exec streams, async_io_proc_reap); the close
 * then returns what reap returns, the status as pclose() gives it. */
void async_io_stdio_set_child(php_stream *stream, pid_t pid, int (*reap)(pid_t pid, bool wait));
/* The close of stream will not wait for its child (it is reaped later). */
void async_io_stdio_abandon_child(php_stream *stream);
/* A read, write or lock of stream was cancelled (C18). */
bool async_io_stdio_was_cancelled(php_stream *stream);

#endif /* ASYNC_IO_STDIO_H */
