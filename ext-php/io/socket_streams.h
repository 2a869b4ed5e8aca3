/*
 * io/socket_streams.h - the wrapped ops of socket streams
 * (io/socket_streams.c): what socket_transport.c (the transports that make
 * them, their transport options) and the other hook families ask of a
 * socket stream.
 */
#ifndef ASYNC_IO_SOCKET_STREAMS_H
#define ASYNC_IO_SOCKET_STREAMS_H

#include "io/wait.h"

/* A zero timeval: the caller asked for no wait at all. */
static inline bool async_io_tv_is_zero(const struct timeval *tv)
{
	return tv->tv_sec == 0 && tv->tv_usec == 0;
}

/* --------------------------------------------------- socket_streams.c */

/* True when stream's ops are the wrapped socket ops of socket_streams.c. */
bool async_io_stream_is_socket(php_stream *stream);

/*
 * Waits until fd is ready for events or the deadline passes, counted as a
 * user of stream and, as reading or writing, its reader or writer (C24).
 * ASYNC_IO_CLOSED when fclose() closes the stream meanwhile.
 */
async_io_status async_io_stream_wait(php_stream *stream, int fd, unsigned events, uint64_t deadline,
	tasync_coroutine_t *self, bool reading);

/*
 * Fails a socket stream as a connection reset would (rule C24, after a
 * read or write cancelled midway): the connection is shut down, the fd
 * now reads EOF and fails writes (EPIPE), what the stream had buffered is
 * dropped and feof() is true, so that no later call can consume a reply
 * meant for the cancelled one.
 */
void async_io_stream_fail(php_stream *stream);

/* A wait of an operation that is neither the stream's read nor its write
 * (accept, connect, recvfrom): ASYNC_IO_CLOSED once fclose() closes it. */
async_io_status async_io_stream_wait_on(php_stream *stream, int fd, unsigned events, uint64_t deadline);
/* The wait of an operation on stream that found no descriptor left
 * (async_io_fd_shortage_wait), as a user of the stream: ASYNC_IO_CLOSED
 * once fclose() closes it. */
async_io_status async_io_stream_fd_shortage_wait(php_stream *stream, uint64_t deadline);
/* fclose() is closing the stream: a new operation fails at once, and its
 * coroutine yields once PHP's call returned (async_io_busy_refused). */
bool async_io_stream_closing(php_stream *stream);
/* Calls PHP's set_option with PHP's ops in place (xp_socket.c tells the
 * transports apart by the address of stream->ops). */
int async_io_stream_delegate_option(php_stream *stream, const php_stream_ops *orig, int option, int value,
	void *ptrparam);
/* Makes a socket stream concurrent inside coroutines: its ops become the
 * wrapped ones (no-op for a stream that is not a known socket). */
void async_io_stream_wrap(php_stream *stream);
/* PHP's own ops of a wrapped stream, and whether they are ext/openssl's
 * (TLS may be active). */
const php_stream_ops *async_io_stream_orig_ops(php_stream *stream);
bool async_io_stream_openssl(php_stream *stream);
/* fd is a freshly accepted connection: its first read peeks at its receive
 * queue before it allocates (see socket_streams.c). */
void async_io_stream_accepted(int fd);

#endif /* ASYNC_IO_SOCKET_STREAMS_H */
